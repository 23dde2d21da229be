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
