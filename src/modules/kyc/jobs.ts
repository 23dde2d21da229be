import { and, eq, isNull } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import type { JobDefinition } from "../../platform/jobs/index.ts";
import {
  type BankAccountInput,
  type IndividualDetails,
  ProviderRejection,
} from "../../platform/providers/kyc/types.ts";
import type { KycContext } from "./context.ts";
import { applyAccount } from "./sync.ts";
import { kycs } from "./tables.ts";

export const KYC_ACTION_JOB = "kyc.provider-action";

/** What the widget asked for; the inputs travel sealed, since job rows are stored in clear. */
export type KycAction =
  | { action: "account" }
  | { action: "details"; input: IndividualDetails }
  | { action: "bank_account"; input: BankAccountInput }
  | { action: "document"; input: { filename: string; content_type: string; content_base64: string } };

export interface KycActionJob {
  kycId: string;
  sealed: string;
}

async function perform(ctx: KycContext, accountId: string, request: KycAction, key: string) {
  switch (request.action) {
    case "account":
      return; // creating the account was the whole action
    case "details":
      return ctx.provider.submitDetails(accountId, request.input, key);
    case "bank_account":
      return ctx.provider.addBankAccount(accountId, request.input, key);
    case "document": {
      const { content_base64, ...rest } = request.input;
      const content = Buffer.from(content_base64, "base64");
      return ctx.provider.uploadIdentityDocument(accountId, { ...rest, content }, key);
    }
  }
}

/**
 * Performs one widget action at the provider, then mirrors the account back. Every provider call
 * carries a key derived from the job id, so a retry after a crash repeats no effect.
 */
export function kycActionJob(deps: Deps, ctx: KycContext): JobDefinition<KycActionJob> {
  return {
    name: KYC_ACTION_JOB,
    retryLimit: 8,
    async handle(data, meta) {
      const [kyc] = await deps.db.select().from(kycs).where(eq(kycs.id, data.kycId));
      if (!kyc) return; // deleted meanwhile: nothing left to onboard
      const request = JSON.parse(ctx.sealer.open(data.sealed, kyc.id)) as KycAction;
      let accountId = kyc.providerAccountId;
      if (!accountId) {
        const created = await ctx.provider.createAccount(
          {
            reference: kyc.id,
            type: kyc.accountType as "custom" | "express" | "standard",
            email: kyc.email,
            country: request.action === "details" ? request.input.country : (kyc.country ?? "US"),
          },
          `kyc-${kyc.id}-create`,
        );
        accountId = created.id;
        await deps.db
          .update(kycs)
          .set({ providerAccountId: accountId, accountExists: true, updatedAt: deps.now() })
          .where(and(eq(kycs.id, kyc.id), isNull(kycs.providerAccountId)));
      }
      const key = `kyc-job-${meta.id}`;
      try {
        await perform(ctx, accountId, request, key);
      } catch (error) {
        // A refused input is an answer, not an outage: the account's requirements show what is missing.
        if (!(error instanceof ProviderRejection)) throw error;
        deps.logger.info({ kyc_id: kyc.id, code: error.code }, "provider refused a KYC input");
      }
      const account = await ctx.provider.retrieveAccount(accountId);
      await deps.db.transaction((tx) =>
        applyAccount(deps, tx, kyc.id, account, { now: deps.now(), actionDone: true }),
      );
    },
  };
}
