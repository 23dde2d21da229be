export { Client } from "./client.ts";
export { ApiError, ConnectionError, type FieldError } from "./errors.ts";
export type { ClientOptions, RequestOptions } from "./http.ts";
export type { components, operations, paths } from "./openapi.ts";
export { List, type PageAnswer } from "./paging.ts";
export { DEFAULT_RETRY, type RetryPolicy } from "./retry.ts";
export type * from "./types.ts";
export { verifyWebhook, type WebhookEvent } from "./webhooks.ts";
