import { ApiError } from "@payments-backend/sdk";

/**
 * The problem's field errors by body field (`/body/amount` -> `amount`), so each message shows
 * under its own input; what names no field of the form stays in the banner.
 */
export function fieldErrors(error: unknown): Record<string, string> {
  const byField: Record<string, string> = {};
  if (!(error instanceof ApiError)) return byField;
  for (const { path, message } of error.errors) {
    const field = path.replace(/^\/body\//, "").split("/")[0];
    byField[field] ??= message;
  }
  return byField;
}
