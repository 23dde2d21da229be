// The response headers of the OpenAPI document (src/platform/http/openapi.ts), and the 429 of each
// operation a rate limit applies to.

type Schema = Record<string, unknown>;

/**
 * Operations a per-client limit applies to (src/platform/http/rate-limit.ts, `RATE_LIMITS`): each
 * documents its 429 with `Retry-After`. By operationId, so no module is imported here.
 */
const RATE_LIMITED: Record<string, string> = {
  signUp: "`signup_per_ip`",
  logIn: "`login_per_ip` (and a back-off per account after failed passwords)",
  createCheckoutPayment: "`checkout_per_ip` and `checkout_per_price`",
  sendShopperCode: "`shopper_code_per_ip` and `shopper_code_per_email`",
  createShopperSession: "`shopper_session_per_ip`",
  getKycWidget: "`kyc_widget_per_ip` and `kyc_widget_per_token`",
  submitKycDetails: "`kyc_widget_per_ip` and `kyc_widget_per_token`",
  submitKycBankAccount: "`kyc_widget_per_ip` and `kyc_widget_per_token`",
  startKycOnboarding: "`kyc_widget_per_ip` and `kyc_widget_per_token`",
  uploadKycDocument: "`kyc_widget_per_ip` and `kyc_widget_per_token`",
};

/** The response headers the service sends, declared once here. */
const HEADERS = {
  RequestId: {
    description: "The request's id (`req_…`), on every answer; quote it to support.",
    schema: { type: "string" },
  },
  IdempotentReplayed: {
    description:
      "`true` when this answer was stored from an earlier request with the same `Idempotency-Key`.",
    schema: { type: "string", enum: ["true"] },
  },
  RetryAfter: {
    description: "Seconds to wait before trying again.",
    schema: { type: "integer", minimum: 0 },
  },
  Link: {
    description:
      'RFC 8288 links to the `first`, `prev`, `next` and `last` pages (`rel="next"` while there is more).',
    schema: { type: "string" },
  },
  TotalCount: {
    description: "How many items the list has in all: exact up to the service's cap, then a lower bound.",
    schema: { type: "integer", minimum: 0 },
  },
  TotalCountCapped: {
    description: "`true` when `X-Total-Count` is the cap, a lower bound rather than the exact count.",
    schema: { type: "string", enum: ["true"] },
  },
} as const;

// Written out in each answer (not `$ref`ed), so each reads as described where it is declared.
const header = (name: keyof typeof HEADERS) => ({ ...HEADERS[name] });

/**
 * Declares each answer's headers: `x-request-id` on all, `idempotent-replayed` on an idempotent
 * POST's success, `Link` and the counts on a list, `Retry-After` on a 429 (added, with its limit, to
 * the operations a limit applies to).
 */
export function addResponseHeaders(doc: Schema): Schema {
  for (const operations of Object.values(doc.paths as Record<string, Record<string, Schema>>)) {
    for (const [method, operation] of Object.entries(operations)) {
      const responses = (operation.responses ?? {}) as Record<string, Schema>;
      const parameters = (operation.parameters as Schema[] | undefined) ?? [];
      const limit = RATE_LIMITED[String(operation.operationId)];
      if (limit && !responses[429]) {
        responses[429] = {
          description: `Too many requests from this client (\`rate_limited\`), under ${limit}; \`Retry-After\` says when to try again`,
          content: ((responses["4XX"] as Schema | undefined)?.content ?? {}) as Schema,
        };
      }
      const idempotent = method === "post" && parameters.some((p) => p.name === "Idempotency-Key");
      const list = parameters.some((p) => p.in === "query" && p.name === "starting_after");
      for (const [status, answer] of Object.entries(responses)) {
        const headers = { ...((answer.headers as Schema | undefined) ?? {}) } as Schema;
        headers["x-request-id"] = header("RequestId");
        if (status.startsWith("2") && idempotent)
          headers["idempotent-replayed"] = header("IdempotentReplayed");
        if (status.startsWith("2") && list) {
          headers.Link = header("Link");
          headers["X-Total-Count"] = header("TotalCount");
          headers["X-Total-Count-Capped"] = header("TotalCountCapped");
        }
        if (status === "429") headers["Retry-After"] = header("RetryAfter");
        answer.headers = headers;
      }
      operation.responses = responses;
    }
  }
  return doc;
}
