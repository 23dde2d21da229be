import { Type } from "typebox";
import { invalid, notFound } from "../../../http/errors.ts";
import { Body, Nullable } from "../../../http/schemas.ts";
import type { Server } from "../../../http/server.ts";
import type { SandboxPaymentProvider } from "./provider.ts";

const Params = Type.Object({ intent_id: Type.String({ pattern: "^pi_[0-9a-z]{26}$" }) });
const tags = ["sandbox"];

const Metadata = Type.Record(Type.String(), Type.String());
/** Stripe's transfer object, as far as the sandbox keeps one (amounts in minor units, times in Unix seconds). */
const Transfer = Type.Object({
  id: Type.String(),
  object: Type.Literal("transfer"),
  amount: Type.Integer(),
  amount_reversed: Type.Integer(),
  currency: Type.String(),
  created: Type.Integer(),
  destination: Type.String({ description: "The connected account (`acct_…`) that received it" }),
  metadata: Metadata,
  reversed: Type.Boolean({ description: "Whether the whole amount was reversed" }),
  reversals: Type.Object({
    object: Type.Literal("list"),
    data: Type.Array(
      Type.Object({
        id: Type.String(),
        object: Type.Literal("transfer_reversal"),
        amount: Type.Integer(),
        currency: Type.String(),
        created: Type.Integer(),
        metadata: Metadata,
        transfer: Type.String(),
      }),
    ),
    has_more: Type.Boolean(),
    total_count: Type.Integer(),
    url: Type.String(),
  }),
  source_transaction: Nullable(Type.String({ description: "The sandbox intent the money came from" })),
  transfer_group: Nullable(Type.String({ description: "The payment id, for transfers of a payment" })),
});

// The page a 3-D Secure card's next action points at, standing in for the issuer's challenge.
// Plain HTML and a few lines of script: the intent id is validated by the route's pattern, so it
// is safe to place in the page as is.
function challengePage(intentId: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sandbox 3-D Secure</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="font-family: system-ui, sans-serif; max-width: 28rem; margin: 3rem auto">
<h1>3-D Secure (sandbox)</h1>
<p>This stands in for the card issuer's check of payment <code>${intentId}</code>. Nothing is charged.</p>
<button id="pass" type="button">Complete authentication</button>
<button id="fail" type="button">Fail authentication</button>
<p id="result" role="status"></p>
<script>
for (const outcome of ["pass", "fail"]) {
  document.getElementById(outcome).addEventListener("click", async () => {
    const answer = await fetch(location.pathname, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ outcome }),
    });
    const body = await answer.json();
    if (!answer.ok) { document.getElementById("result").textContent = body.detail; return; }
    if (body.return_url) {
      const back = new URL(body.return_url);
      back.searchParams.set("payment_intent", body.id);
      location.assign(back.toString());
    } else {
      document.getElementById("result").textContent = "Authentication " + (outcome === "pass" ? "completed" : "failed");
    }
  });
}
</script>
</body></html>`;
}

/**
 * The sandbox's own public routes, served only in sandbox mode: the 3-D Secure challenge the
 * shopper's browser is sent to, and read-only views of the transfers the sandbox made (what
 * Stripe's `GET /v1/transfers` shows a platform), so a marketplace can see its sellers' transfers
 * and their reversals. Sandbox money is not real money and the ids are unguessable, so, like the
 * challenge page, they take no credential.
 */
export async function sandboxChallengeRoutes(app: Server, sandbox: SandboxPaymentProvider) {
  app.get(
    "/sandbox/3ds/:intent_id",
    {
      config: { public: true, page: "text/html" },
      schema: {
        operationId: "getSandbox3dsPage",
        tags,
        summary: "Sandbox 3-D Secure challenge page",
        params: Params,
      },
    },
    async (request, reply) => {
      await sandbox.findIntent(request.params.intent_id);
      return reply.type("text/html; charset=utf-8").send(challengePage(request.params.intent_id));
    },
  );

  app.post(
    "/sandbox/3ds/:intent_id",
    {
      config: { public: true },
      schema: {
        operationId: "answerSandbox3ds",
        tags,
        summary: "Answer the sandbox 3-D Secure challenge",
        params: Params,
        body: Body({ outcome: Type.Union([Type.Literal("pass"), Type.Literal("fail")]) }),
        response: {
          200: Type.Object({ id: Type.String(), status: Type.String(), return_url: Nullable(Type.String()) }),
        },
      },
    },
    async (request) => {
      const before = await sandbox.findIntent(request.params.intent_id);
      const after = await sandbox.completeAuthentication(
        request.params.intent_id,
        request.body.outcome === "pass",
      );
      return { id: after.id, status: after.status, return_url: before.nextAction?.returnUrl ?? null };
    },
  );

  app.get(
    "/sandbox/v1/transfers",
    {
      config: { public: true },
      schema: {
        operationId: "listSandboxTransfers",
        tags,
        summary: "Sandbox transfers of a transfer group (a payment id) or to a connected account",
        description:
          "Stripe's `GET /v1/transfers` list, filtered as Stripe filters it; one of the filters is required. At most 100.",
        querystring: Type.Object(
          {
            transfer_group: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
            destination: Type.Optional(Type.String({ pattern: "^acct_[0-9A-Za-z_]{1,64}$" })),
          },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Object({
            object: Type.Literal("list"),
            data: Type.Array(Transfer),
            has_more: Type.Boolean(),
            url: Type.String(),
          }),
        },
      },
    },
    async (request) => {
      const { transfer_group: transferGroup, destination } = request.query;
      if (!transferGroup && !destination) {
        throw invalid("/query/transfer_group", "give a transfer_group or a destination");
      }
      const data = await sandbox.listTransfers({ transferGroup, destination });
      return { object: "list" as const, data, has_more: false, url: "/v1/transfers" };
    },
  );

  app.get(
    "/sandbox/v1/transfers/:transfer_id",
    {
      config: { public: true },
      schema: {
        operationId: "getSandboxTransfer",
        tags,
        summary: "One sandbox transfer, with its reversals (Stripe's `GET /v1/transfers/{id}`)",
        params: Type.Object({ transfer_id: Type.String({ pattern: "^tr_[0-9a-z]{26}$" }) }),
        response: { 200: Transfer },
      },
    },
    async (request) => {
      const [transfer] = await sandbox.listTransfers({ id: request.params.transfer_id });
      if (!transfer) throw notFound("Transfer");
      return transfer;
    },
  );
}
