import { createRequire } from "node:module";
import type { FastifyServerOptions } from "fastify";

// Fastify's own default serializer builder, resolved from Fastify itself so it is always the one
// the installed Fastify would use (it is Fastify's dependency, not ours).
const fastifyRequire = createRequire(createRequire(import.meta.url).resolve("fastify"));
type BuildSerializer = NonNullable<
  NonNullable<NonNullable<FastifyServerOptions["schemaController"]>["compilersFactory"]>["buildSerializer"]
>;
type Serialize = ReturnType<ReturnType<BuildSerializer>>;
const SerializerSelector = fastifyRequire("@fastify/fast-json-stringify-compiler") as () => BuildSerializer;
const buildDefault = SerializerSelector();

/**
 * Fastify's default response serializers, each compiled when its route first answers with that
 * status rather than all at start-up. Same code, same output; only when the compiling happens moves.
 * Compiling every route's serializers is a second of CPU at start-up, while a test file answers with
 * a few of them (test/helpers/app.ts turns this on). A server started in production keeps compiling
 * them all up front, so a schema the compiler refuses fails at start, as the tests that start the
 * real process (test/helpers/processes.ts) also see.
 */
export const buildSerializerOnFirstUse: BuildSerializer = (externalSchemas, serializerOpts) => {
  const compile = buildDefault(externalSchemas, serializerOpts);
  return (route) => {
    let serialize: Serialize | undefined;
    return (data) => {
      serialize ??= compile(route);
      return serialize(data);
    };
  };
};

/**
 * An answer a service already holds as its JSON text, made by `serializerOf` from the route's own
 * schema: the route helpers (routes.ts) send it as it is, where they would serialize an object.
 */
export class SerializedAnswer {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}

/**
 * The function Fastify would compile to serialize an answer by `schema` (its default compiler,
 * the same options), compiled on its first call: for a service that keeps an answer's text to send
 * it again (src/modules/payments/answer-text.ts), byte for byte what the route would have sent.
 */
export function serializerOf(schema: object): (value: unknown) => string {
  let serialize: Serialize | undefined;
  return (value) => {
    serialize ??= buildDefault({}, undefined)({ schema, method: "GET", url: "", httpStatus: "200" });
    return serialize(value);
  };
}
