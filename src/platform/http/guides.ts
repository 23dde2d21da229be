import { SANDBOX_MARKERS } from "../chains/sandbox.ts";
import { sandboxSellerTestInputs } from "../providers/kyc/sandbox.ts";
import { sandboxTestInstruments, type TestInstrument } from "../providers/payments/sandbox/instruments.ts";
import { ERROR_STATUS, type ErrorCode, meaningOf, titleOf } from "./errors.ts";
import { IDEMPOTENCY_TIMES } from "./idempotency.ts";
import { type Guide, readGuides } from "./openapi-prose.ts";
import { LIST_LIMITS } from "./pagination.ts";
import { type Limit, LOGIN_BACKOFF, RATE_LIMIT_SUBJECTS, type RateLimitSettings } from "./rate-limit.ts";
import { Problem } from "./schemas.ts";

/**
 * The API's guides, the document's `info.description` (Swagger UI shows it at the top of /docs).
 * The prose is Markdown in `docs/guides/`; what the code knows is computed here and put in its
 * `{{placeholders}}`: the error codes from the one list, the configured rate limits, the sandbox's
 * test instruments and chain markers, every webhook event with its example. So none can drift.
 */

/** The guides, in the order they are shown; test/platform/openapi-guides.test.ts checks every file is here. */
export const GUIDES = [
  "introduction",
  "authentication",
  "errors",
  "idempotency",
  "pagination",
  "rate-limits",
  "testing",
  "webhooks",
  "sandbox-chains",
] as const;

export interface GuideSettings {
  publicUrl: string;
  rateLimits: RateLimitSettings;
  listCountCap: number;
}

type Schema = Record<string, unknown>;

const cell = (text: string) => text.replaceAll("|", "\\|").replaceAll("\n", " ");
const table = (head: string[], rows: string[][]) =>
  [
    `| ${head.join(" | ")} |`,
    `| ${head.map(() => "---").join(" | ")} |`,
    ...rows.map((r) => `| ${r.map(cell).join(" | ")} |`),
  ].join("\n");
const number = (n: number) => n.toLocaleString("en-US");

function errorCodes(): string {
  const codes = Object.entries(ERROR_STATUS).sort(([a, x], [b, y]) => x - y || a.localeCompare(b)) as [
    ErrorCode,
    number,
  ][];
  return table(
    ["Status", "`code`", "Title", "When, and what to do"],
    codes.map(([code, status]) => [String(status), `\`${code}\``, titleOf(code), meaningOf(code)]),
  );
}

function duration(seconds: number): string {
  if (seconds % 3600 === 0) return seconds === 3600 ? "hour" : `${seconds / 3600} hours`;
  if (seconds % 60 === 0) return seconds === 60 ? "minute" : `${seconds / 60} minutes`;
  return seconds === 1 ? "second" : `${seconds} seconds`;
}

function rateLimits(settings: RateLimitSettings): string {
  const rows = (Object.entries(settings) as [keyof RateLimitSettings, Limit][]).map(([name, limit]) => [
    `\`${name}\``,
    `${number(limit.max)} per ${duration(limit.windowSeconds)}`,
    RATE_LIMIT_SUBJECTS[name],
  ]);
  return table(["Limit", "Allowed", "What it counts"], rows);
}

const instruments = (head: string, rows: TestInstrument[]) =>
  table(
    [head, "Outcome"],
    rows.map(({ value, outcome }) => [value.startsWith("any ") ? value : `\`${value}\``, outcome]),
  );

function chainMarkers(): string {
  return table(
    ["Marker", "What the transaction does"],
    Object.entries(SANDBOX_MARKERS).map(([outcome, what]) => [`\`sandbox:${outcome}\``, what]),
  );
}

/** One collapsible entry per event type: what it means, and its example payload. */
function webhookEvents(events: Record<string, Schema>): string {
  return Object.entries(events)
    .map(([type, schema]) => {
      const example = (schema.examples as unknown[] | undefined)?.[0];
      const what = String(schema.description ?? "").replace(`\`${type}\`: `, "");
      const json =
        example === undefined ? "" : `\n\n\`\`\`json\n${JSON.stringify(example, null, 2)}\n\`\`\`\n`;
      return `<details><summary><code>${type}</code>: ${what}</summary>${json}\n</details>`;
    })
    .join("\n\n");
}

function parts(settings: GuideSettings, events: Record<string, Schema>): Record<string, string> {
  const sandbox = sandboxTestInstruments();
  const sellers = sandboxSellerTestInputs();
  const problem = (Problem as unknown as { examples: unknown[] }).examples[0];
  return {
    server: `\`${settings.publicUrl}\``,
    "problem-example": JSON.stringify(problem, null, 2),
    "error-codes": errorCodes(),
    "idempotency-keep-hours": String(IDEMPOTENCY_TIMES.keepMs / 3_600_000),
    "idempotency-wait-seconds": String(IDEMPOTENCY_TIMES.waitMs / 1000),
    "idempotency-abandoned-seconds": String(IDEMPOTENCY_TIMES.abandonedMs / 1000),
    "list-default-limit": String(LIST_LIMITS.defaultLimit),
    "list-max-limit": String(LIST_LIMITS.maxLimit),
    "list-count-cap": number(settings.listCountCap),
    "rate-limits": rateLimits(settings.rateLimits),
    "login-backoff-free": String(LOGIN_BACKOFF.freeFailures),
    "login-backoff-max-minutes": String(LOGIN_BACKOFF.maxSeconds / 60),
    "test-cards": instruments("Card number", sandbox.cards),
    "test-tokens": instruments("Payment method", sandbox.tokens),
    "test-routing-number": sandbox.routingNumber,
    "test-bank-accounts": instruments("Account number", sandbox.bankAccounts),
    "seller-routing-number": sellers.routingNumber,
    "seller-bank-accounts": instruments("Account number", sellers.bankAccounts),
    "seller-failing-document": sellers.failingDocument,
    "webhook-events": webhookEvents(events),
    "chain-markers": chainMarkers(),
  };
}

/** Fills a guide's `{{name}}` placeholders; an unknown one is a mistake in the guide, refused. */
function fill(guide: Guide, values: Record<string, string>): string {
  return guide.body.replace(/\{\{([a-z-]+)\}\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`docs/guides/${guide.name}.md: no value for {{${name}}}`);
    return value;
  });
}

/** Reads the guides' Markdown (at start-up: a missing or malformed file stops the service there). */
export function loadGuides(): Guide[] {
  return readGuides(GUIDES);
}

/**
 * `info.description`: the introduction in full, then each guide as a collapsed section (HTML
 * `<details>`, which Markdown passes through), so the operations stay near the top of the page.
 */
export function renderGuides(
  guides: Guide[],
  settings: GuideSettings,
  events: Record<string, Schema>,
): string {
  const values = parts(settings, events);
  const [introduction, ...rest] = guides;
  const sections = rest.map(
    (guide) =>
      `<details><summary><strong>${guide.title}</strong></summary>\n\n${fill(guide, values)}\n\n</details>`,
  );
  return [fill(introduction, values), ...sections].join("\n\n");
}
