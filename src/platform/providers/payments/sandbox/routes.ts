import { Type } from "typebox";
import { invalid, notFound } from "../../../http/errors.ts";
import { exampleOf, withExamples } from "../../../http/schema-docs.ts";
import { Body, Nullable } from "../../../http/schemas.ts";
import type { Server } from "../../../http/server.ts";
import { escapeHtml, layout, newNonce, sendPage } from "../../../pages/html.ts";
import type { SandboxPaymentProvider } from "./provider.ts";

const Params = Type.Object({
  intent_id: Type.String({
    pattern: "^pi_[0-9a-z]{26}$",
    description: "The sandbox payment intent (`pi_…`)",
  }),
});
const tags = ["sandbox"];

const Metadata = Type.Record(Type.String(), Type.String(), {
  description: "Key-value pairs set by the service",
});
const MinorUnits = (description: string) => Type.Integer({ description: `${description}, in minor units` });
const Created = Type.Integer({ description: "When it was made, in Unix seconds" });
const Currency = Type.String({ description: "Lower-case currency code" });
/** Stripe's transfer object, as far as the sandbox keeps one (amounts in minor units, times in Unix seconds). */
const Transfer = Type.Object({
  id: Type.String({ description: "The transfer's id (`tr_…`)" }),
  object: Type.Literal("transfer", { description: "Always `transfer`" }),
  amount: MinorUnits("The amount sent"),
  amount_reversed: MinorUnits("The amount reversed so far"),
  currency: Currency,
  created: Created,
  destination: Type.String({ description: "The connected account (`acct_…`) that received it" }),
  metadata: Metadata,
  reversed: Type.Boolean({ description: "Whether the whole amount was reversed" }),
  reversals: Type.Object(
    {
      object: Type.Literal("list", { description: "Always `list`" }),
      data: Type.Array(
        Type.Object({
          id: Type.String({ description: "The reversal's id (`trr_…`)" }),
          object: Type.Literal("transfer_reversal", { description: "Always `transfer_reversal`" }),
          amount: MinorUnits("The amount reversed"),
          currency: Currency,
          created: Created,
          metadata: Metadata,
          transfer: Type.String({ description: "The transfer reversed" }),
        }),
        { description: "The reversals, oldest first" },
      ),
      has_more: Type.Boolean({ description: "Always false: every reversal is listed" }),
      total_count: Type.Integer({ description: "How many reversals" }),
      url: Type.String({ description: "Stripe's path of this list" }),
    },
    { description: "The transfer's reversals" },
  ),
  source_transaction: Nullable(Type.String({ description: "The sandbox intent the money came from" })),
  transfer_group: Nullable(Type.String({ description: "The payment id, for transfers of a payment" })),
});
withExamples(Transfer, {
  id: "tr_01m87s3v8k4r2fjc23vtvkbtk1",
  object: "transfer",
  amount: 2350,
  amount_reversed: 0,
  currency: "usd",
  created: 1795987860,
  destination: "acct_1Q2w3E4r5T6y7U8i",
  metadata: { payment_id: "pay_01m87s3v8k4r2fjc23vtvkbtjm", share: "seller" },
  reversed: false,
  reversals: {
    object: "list",
    data: [],
    has_more: false,
    total_count: 0,
    url: "/v1/transfers/tr_01m87s3v8k4r2fjc23vtvkbtk1/reversals",
  },
  source_transaction: "pi_01m87s3v8k4r2fjc23vtvkbtk3",
  transfer_group: "pay_01m87s3v8k4r2fjc23vtvkbtjm",
});

// The page a 3-D Secure card's next action points at, standing in for the issuer's challenge. It
// shares the hosted pages' layout and style (platform/pages), and their strict policy: its one
// script runs under the response's nonce, and the intent id reaches it as data, not markup.
const CHALLENGE_SCRIPT = `
const { intent_id } = JSON.parse(document.getElementById("data").textContent);
const say = (text, kind) => { const m = document.getElementById("message"); m.textContent = text; m.className = kind; };
for (const outcome of ["pass", "fail"]) {
  document.getElementById(outcome).addEventListener("click", async () => {
    for (const b of document.querySelectorAll("button")) b.disabled = true;
    say("Checking with your bank…", "pending");
    const answer = await fetch(location.pathname, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ outcome }),
    });
    const body = await answer.json().catch(() => ({}));
    if (!answer.ok) {
      say(body.detail || "The check could not be completed.", "error");
      for (const b of document.querySelectorAll("button")) b.disabled = false;
      return;
    }
    if (body.return_url) {
      const back = new URL(body.return_url);
      back.searchParams.set("payment_intent", intent_id);
      location.assign(back.toString());
    } else {
      say("Authentication " + (outcome === "pass" ? "completed" : "failed"), outcome === "pass" ? "ok" : "error");
    }
  });
}
`;

function challengePage(intentId: string, nonce: string): string {
  return layout(
    nonce,
    "Confirm your payment",
    `<h1>Confirm your payment</h1>
<p><span class="pill pill-info">Sandbox</span> This stands in for your card issuer's 3-D Secure check of
payment <code>${escapeHtml(intentId)}</code>. Nothing is charged.</p>
<p>
<button id="pass" type="button">Complete authentication</button>
<button id="fail" type="button" class="secondary">Fail authentication</button>
</p>
<p id="message" role="status" aria-live="polite"></p>`,
    { data: { intent_id: intentId }, code: CHALLENGE_SCRIPT },
  );
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
      const nonce = newNonce();
      return sendPage(reply, 200, nonce, challengePage(request.params.intent_id, nonce));
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
        body: withExamples(
          Body({
            outcome: Type.Union([Type.Literal("pass"), Type.Literal("fail")], {
              description: "Whether the shopper passes or fails the check",
            }),
          }),
          { outcome: "pass" },
        ),
        response: {
          200: Type.Object(
            {
              id: Type.String({ description: "The payment intent's id" }),
              status: Type.String({ description: "The intent's status after the answer" }),
              return_url: Nullable(
                Type.String({ description: "Where to send the shopper back, if the confirm named one" }),
              ),
            },
            {
              examples: [
                {
                  id: "pi_01m87s3v8k4r2fjc23vtvkbtk3",
                  status: "requires_capture",
                  return_url: "https://shop.example.com/checkout/done",
                },
              ],
            },
          ),
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

  sandboxTransferRoutes(app, sandbox);
}

/** The sandbox's transfers to sellers, to read what a payout sent. */
function sandboxTransferRoutes(app: Server, sandbox: SandboxPaymentProvider) {
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
            transfer_group: Type.Optional(
              Type.String({
                minLength: 1,
                maxLength: 64,
                description: "Transfers of this group: a payment id",
              }),
            ),
            destination: Type.Optional(
              Type.String({
                pattern: "^acct_[0-9A-Za-z_]{1,64}$",
                description: "Transfers to this connected account",
              }),
            ),
          },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Object(
            {
              object: Type.Literal("list", { description: "Always `list`" }),
              data: Type.Array(Transfer, { description: "The transfers (at most 100)" }),
              has_more: Type.Boolean({ description: "Always false" }),
              url: Type.String({ description: "Stripe's path of this list" }),
            },
            {
              examples: [
                { object: "list", data: [exampleOf(Transfer)], has_more: false, url: "/v1/transfers" },
              ],
            },
          ),
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
        params: Type.Object({
          transfer_id: Type.String({ pattern: "^tr_[0-9a-z]{26}$", description: "The transfer's id" }),
        }),
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
