import { eq } from "drizzle-orm";
import { Type } from "typebox";
import type { Deps } from "../../deps.ts";
import { notFound } from "../../platform/http/errors.ts";
import type { Server } from "../../platform/http/server.ts";
import { PROVIDER_IDS, type ProviderId } from "../../platform/providers/payments/types.ts";
import { type PaymentJob, SYNC_JOB } from "./job-names.ts";
import { applyReturn, paymentOfIntent } from "./returns.ts";
import { payments, providerEvents } from "./tables.ts";

/**
 * Inbound provider webhooks. The signature is checked on the raw body, so this scope parses JSON
 * bodies as bytes. A duplicate event is recorded once and applied once; an intent event only wakes
 * the sync job, which reads the intent's current state, so events arriving out of order or late
 * cannot move a payment backwards. A charge event that takes a collected bank debit back (a return
 * or a dispute) moves its payment to `failed` at once (returns.ts).
 */
export async function providerWebhookRoutes(app: Server, deps: Deps) {
  await app.register(async (scope) => {
    scope.addContentTypeParser("application/json", { parseAs: "buffer" }, (_request, body, done) =>
      done(null, body),
    );
    (scope as unknown as Server).post(
      "/providers/:provider_id/webhooks",
      {
        config: { public: true },
        schema: {
          operationId: "receiveProviderWebhook",
          tags: ["payments"],
          summary: "Where the payment provider sends its events (signed)",
          params: Type.Object({
            provider_id: Type.String({
              maxLength: 32,
              description: "The provider sending: `stripe` or `sandbox`",
            }),
          }),
          response: {
            200: Type.Object(
              {
                received: Type.Boolean({ description: "Always true: the event is recorded" }),
                duplicate: Type.Boolean({
                  description: "The event was received before, and is not applied again",
                }),
              },
              { examples: [{ received: true, duplicate: false }] },
            ),
          },
        },
      },
      async (request) => {
        const id = request.params.provider_id as ProviderId;
        if (!PROVIDER_IDS.includes(id)) throw notFound("Provider");
        const event = deps.paymentProviders.byId(id).parseWebhook(request.body as Buffer, request.headers);
        const duplicate = await deps.db.transaction(async (tx) => {
          const [fresh] = await tx
            .insert(providerEvents)
            .values({ id: `${id}:${event.id}`, providerId: id, type: event.type })
            .onConflictDoNothing()
            .returning();
          if (!fresh) return true;
          if (event.intent) {
            const [payment] = await tx
              .select({ id: payments.id })
              .from(payments)
              .where(eq(payments.intentId, event.intent.id));
            if (payment) await deps.jobs.send<PaymentJob>(tx, SYNC_JOB, { paymentId: payment.id });
          }
          if (event.reversal) {
            // A collected bank debit returned or disputed: applied here, with the event's record.
            const payment = await paymentOfIntent(tx, id, event.reversal.intentId);
            if (payment) await applyReturn(deps, tx, payment.id, event.reversal, `provider:${id}`);
          }
          return false;
        });
        return { received: true, duplicate };
      },
    );
  });
}
