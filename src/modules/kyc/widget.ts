import { eq, sql } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import { hashToken } from "../../platform/auth/secrets.ts";
import { AppError, invalid } from "../../platform/http/errors.ts";
import type { BankAccountInput } from "../../platform/providers/kyc/types.ts";
import { appJoin } from "../apps/queries.ts";
import type { KycContext } from "./context.ts";
import { KYC_ACTION_JOB, type KycAction } from "./jobs.ts";
import { widgetUrl } from "./presenters.ts";
import { kycs } from "./tables.ts";

/** The widget's only credential is the edit token; an unknown or replaced one is simply not found. */
export async function recordByToken(deps: Deps, token: string) {
  const app = appJoin(kycs.appId);
  const [row] = await deps.db
    .select({ kyc: kycs, app: app.columns })
    .from(kycs)
    .innerJoin(app.table, app.on)
    .where(eq(kycs.editTokenHash, hashToken(token)));
  if (!row) throw new AppError("not_found", "This KYC link is not valid any more: ask the app for a new one");
  return row;
}

/** Records that an action is on its way and enqueues it, in one transaction. */
async function enqueue(deps: Deps, ctx: KycContext, token: string, request: KycAction, email?: string) {
  const { kyc } = await recordByToken(deps, token);
  if (!kyc.active) throw new AppError("conflict", "This seller account is deactivated");
  await deps.db.transaction(async (tx) => {
    await tx
      .update(kycs)
      .set({
        pendingActions: sql`${kycs.pendingActions} + 1`,
        email: email ?? undefined,
        updatedAt: deps.now(),
      })
      .where(eq(kycs.id, kyc.id));
    await deps.jobs.send(tx, KYC_ACTION_JOB, {
      kycId: kyc.id,
      sealed: ctx.sealer.seal(JSON.stringify(request), kyc.id),
    });
  });
}

// What identity-verification providers accept (Stripe: JPEG, PNG or PDF).
const DOCUMENT_TYPES = ["image/jpeg", "image/png", "application/pdf"];

export interface DetailsForm {
  first_name: string;
  last_name: string;
  email: string;
  dob: string;
  country: string;
  address_line1: string;
  city: string;
  postal_code: string;
  tos: "accepted";
}

export async function submitDetails(
  deps: Deps,
  ctx: KycContext,
  token: string,
  form: DetailsForm,
  ip: string,
) {
  const dob = new Date(`${form.dob}T00:00:00Z`);
  const age = (deps.now().getTime() - dob.getTime()) / (365.25 * 24 * 3600 * 1000);
  if (Number.isNaN(age) || age < 13 || age > 120) throw invalid("/body/dob", "must be a real date of birth");
  const { tos: _tos, ...details } = form;
  await enqueue(
    deps,
    ctx,
    token,
    { action: "details", input: { ...details, country: form.country.toUpperCase(), tos_ip: ip } },
    form.email,
  );
}

export async function addBankAccount(deps: Deps, ctx: KycContext, token: string, bank: BankAccountInput) {
  await enqueue(deps, ctx, token, { action: "bank_account", input: bank });
}

export async function uploadDocument(
  deps: Deps,
  ctx: KycContext,
  token: string,
  file: { filename: string; content_type: string; content: Buffer },
) {
  if (file.content.length === 0) throw invalid("/body/document", "the file is empty");
  if (!DOCUMENT_TYPES.includes(file.content_type)) {
    throw invalid("/body/document", "must be a JPEG or PNG image or a PDF");
  }
  await enqueue(deps, ctx, token, {
    action: "document",
    input: {
      filename: file.filename,
      content_type: file.content_type,
      content_base64: file.content.toString("base64"),
    },
  });
}

/**
 * For accounts the provider onboards on its own pages: the account is created by a job first
 * (the page waits for it), then each visit gets a fresh, short-lived provider link. Making a link
 * changes nothing at the provider, so it is done in the request.
 */
export async function hostedOnboarding(deps: Deps, ctx: KycContext, token: string): Promise<string> {
  const { kyc } = await recordByToken(deps, token);
  const page = widgetUrl(deps.config.publicUrl, token);
  if (!ctx.provider.hostsOnboarding(kyc.accountType as "custom" | "express" | "standard")) {
    throw new AppError("conflict", "This seller completes onboarding on this page");
  }
  if (!kyc.providerAccountId) {
    if (kyc.pendingActions === 0) await enqueue(deps, ctx, token, { action: "account" });
    return page;
  }
  try {
    return await ctx.provider.onboardingLink(kyc.providerAccountId, { refresh_url: page, return_url: page });
  } catch (error) {
    deps.logger.warn({ err: error, kyc_id: kyc.id }, "onboarding link failed");
    throw new AppError("provider_unavailable", "The payment provider is not reachable: try again shortly");
  }
}
