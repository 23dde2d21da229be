import type { components, paths } from "./openapi.ts";

type Method = "get" | "post" | "patch" | "delete";
type Operation<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;
type Json<R> = R extends { content: { "application/json": infer T } } ? T : undefined;

/** The JSON body an operation takes. */
export type BodyOf<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { requestBody?: { content: { "application/json": infer B } } } ? B : never;

/** The JSON an operation answers on success (200, 201 or 202; `undefined` for 204). */
export type AnswerOf<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { responses: infer R }
    ? R extends { 200: infer A }
      ? Json<A>
      : R extends { 201: infer A }
        ? Json<A>
        : R extends { 202: infer A }
          ? Json<A>
          : undefined
    : never;

/** An operation's query parameters. */
export type QueryOf<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

/** The item of a list operation. */
export type ItemOf<P extends keyof paths> = AnswerOf<P, "get"> extends (infer T)[] ? T : never;

/** The item of a list operation that answers its items in an envelope, `{data: [...]}`. */
export type EnvelopeItemOf<P extends keyof paths> =
  AnswerOf<P, "get"> extends { data: (infer T)[] } ? T : never;

export type Schemas = components["schemas"];
export type App = Schemas["App"];
export type ApiKey = Schemas["ApiKey"];
export type Payment = Schemas["Payment"];
export type Price = Schemas["Price"];
export type Auction = Schemas["Auction"];
export type Bid = Schemas["Bid"];
export type Kyc = Schemas["Kyc"];
export type Member = Schemas["Member"];
export type Wallet = Schemas["Wallet"];
export type Trigger = Schemas["Trigger"];
export type WebhookEndpoint = Schemas["WebhookEndpoint"];
export type Delivery = Schemas["Delivery"];
export type PaymentEvent = Schemas["PaymentEvent"];
export type Problem = Schemas["Problem"];
