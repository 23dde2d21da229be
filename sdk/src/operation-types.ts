import type { RequestOptions, ResponseMeta, WithResponse } from "./http.ts";
import type { operations } from "./openapi.ts";
import type { List } from "./paging.ts";

/** An operation of the document, by its operationId. */
export type OperationId = keyof operations;
type Op<K extends OperationId> = operations[K];
type Json<R> = R extends { content: { "application/json": infer T } } ? T : undefined;

/** The JSON body an operation takes. */
export type BodyOf<K extends OperationId> =
  Op<K> extends { requestBody?: { content: { "application/json": infer B } } } ? B : never;

/** An operation's query parameters. */
export type QueryOf<K extends OperationId> =
  Op<K> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

/** The JSON an operation answers on success (200, 201 or 202; `undefined` for 204). */
export type AnswerOf<K extends OperationId> =
  Op<K> extends { responses: infer R }
    ? R extends { 200: infer A }
      ? Json<A>
      : R extends { 201: infer A }
        ? Json<A>
        : R extends { 202: infer A }
          ? Json<A>
          : undefined
    : never;

/** An answer without a body (204) still tells its metadata. */
export interface Empty {
  readonly lastResponse: ResponseMeta;
}

/** What a method resolves to: the answer, with its `lastResponse`. */
export type Answered<K extends OperationId> =
  AnswerOf<K> extends undefined ? Empty : WithResponse<AnswerOf<K>>;

/** The item of a list operation (a bare array, or `{data: [...]}`). */
export type ItemOf<K extends OperationId> =
  AnswerOf<K> extends (infer T)[]
    ? T & { id: string }
    : AnswerOf<K> extends { data: (infer T)[] }
      ? T & { id: string }
      : never;

/** One call's inputs, as the generated methods pass them. */
export interface CallInput {
  params: Record<string, string>;
  body?: unknown;
  /** The body's type when it is bytes (an image upload) rather than JSON. */
  contentType?: string;
  query?: object | undefined;
  headers?: Record<string, string>;
}

/** What the generated resource groups call. */
export interface Transport {
  call<K extends OperationId>(id: K, input: CallInput, options?: RequestOptions): Promise<Answered<K>>;
  list<K extends OperationId>(id: K, input: CallInput, options?: RequestOptions): List<ItemOf<K>>;
}
