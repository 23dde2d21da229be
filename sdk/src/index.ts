export { Client, type Events } from "./client.ts";
export {
  ApiError,
  AuthenticationError,
  ConflictError,
  ConnectionError,
  type ErrorCode,
  type FieldError,
  IdempotencyError,
  InvalidRequestError,
  InvalidResponseError,
  NotFoundError,
  PaymentDeclinedError,
  PaymentsError,
  PermissionError,
  RateLimitError,
  ServerError,
} from "./errors.ts";
export { EventStream, type EventStreamOptions } from "./event-stream.ts";
export type { Bytes, ClientOptions, RequestOptions, ResponseMeta, WithResponse } from "./http.ts";
export type { components, operations, paths, webhooks } from "./openapi.ts";
export type { Answered, Empty, OperationId } from "./operation-types.ts";
export { List, type PageAnswer } from "./paging.ts";
export type { Resources } from "./resources.ts";
export { DEFAULT_RETRY, type RetryPolicy } from "./retry.ts";
export type * from "./types.ts";
export { VERSION } from "./version.ts";
export {
  type EventPattern,
  type EventType,
  type SignedTestWebhook,
  signTestWebhook,
  verifyWebhook,
  type WebhookEvent,
  type WebhookEventOf,
  WebhookVerificationError,
} from "./webhooks.ts";
