import { eq } from "drizzle-orm";
import { Type } from "typebox";
import type { Deps } from "../../deps.ts";
import { AppError } from "../../platform/http/errors.ts";
import type { Server } from "../../platform/http/server.ts";
import type { StripeConnectProvider } from "../../platform/providers/kyc/stripe.ts";
import { ProviderRejection } from "../../platform/providers/kyc/types.ts";
import type { KycContext } from "./context.ts";
import { applyAccount } from "./sync.ts";
import { kycs } from "./tables.ts";

/** Stripe's `account.updated` webhook: verified on the raw bytes, then mirrored onto the record. */
export async function kycWebhookRoutes(server: Server, deps: Deps, ctx: KycContext) {
  if (ctx.provider.id !== "stripe") return;
  // The registry builds a StripeConnectProvider for this id; the class itself is imported only as
  // a type, so a sandbox process never loads Stripe's SDK.
  const provider = ctx.provider as StripeConnectProvider;
  await server.register(async (scope) => {
    const app = scope as unknown as Server;
    // The signature covers the exact bytes Stripe sent, so the body must not be parsed first.
    app.removeContentTypeParser("application/json");
    app.addContentTypeParser("application/json", { parseAs: "buffer" }, (_request, body, done) =>
      done(null, body),
    );
    app.post(
      "/kyc/providers/stripe/webhook",
      {
        config: { public: true },
        schema: {
          tags: ["kyc"],
          summary: "Stripe Connect webhook (account.updated), signed with STRIPE_CONNECT_WEBHOOK_SECRET",
          response: { 200: Type.Object({ received: Type.Boolean() }) },
        },
      },
      async (request) => {
        let account: ReturnType<StripeConnectProvider["parseWebhook"]>;
        try {
          const signature = request.headers["stripe-signature"];
          account = provider.parseWebhook(
            request.body as Buffer,
            typeof signature === "string" ? signature : undefined,
          );
        } catch (error) {
          if (error instanceof ProviderRejection) throw new AppError("validation_failed", error.message);
          throw error;
        }
        if (!account) return { received: true };
        const found = account;
        const [kyc] = await deps.db
          .select({ id: kycs.id })
          .from(kycs)
          .where(eq(kycs.providerAccountId, found.id));
        // An account we do not know (deleted record, other platform use) is acknowledged and ignored.
        if (kyc) {
          await deps.db.transaction((tx) =>
            applyAccount(deps, tx, kyc.id, found, { now: deps.now(), actionDone: false }),
          );
        }
        return { received: true };
      },
    );
  });
}
