import { and, eq } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import type { Principal } from "../../platform/auth/principal.ts";
import { hashToken } from "../../platform/auth/secrets.ts";
import { appRecord, updateAppRecord } from "../../platform/http/app-record.ts";
import { AppError, conflict, notFound } from "../../platform/http/errors.ts";
import { type Page, pageOfRows } from "../../platform/http/pagination.ts";
import { newId, newSecret } from "../../platform/ids.ts";
import { requireAppRole } from "../apps/access.ts";
import { findApp } from "../apps/queries.ts";
import type { KycContext } from "./context.ts";
import { presentKyc } from "./presenters.ts";
import { kycs } from "./tables.ts";

export interface CreateKycInput {
  identifier: string;
  email?: string;
  type?: "app" | "app-user";
  account_type?: "custom" | "express" | "standard";
}

/** 256 random bits: the widget's only credential, so it must not be guessable. */
function newEditToken() {
  return newSecret("kyc_et_", 32);
}

async function loadApp(deps: Deps, appId: string) {
  const app = await findApp(deps.db, appId);
  if (!app) throw notFound("App");
  return app;
}

async function loadKyc(deps: Deps, appId: string, kycId: string) {
  return appRecord(deps.db, kycs, appId, kycId, "KYC");
}

/**
 * Creates the record, or answers the existing one for this identifier. The unique index and
 * `on conflict do nothing` make concurrent POSTs end with one record and every caller reading it.
 */
export async function createKyc(
  deps: Deps,
  ctx: KycContext,
  actor: Principal,
  appId: string,
  input: CreateKycInput,
) {
  await requireAppRole(deps.db, actor, appId, "edit");
  const app = await loadApp(deps, appId);
  const token = newEditToken();
  const id = newId("kyc");
  const [inserted] = await deps.db
    .insert(kycs)
    .values({
      id,
      appId,
      identifier: input.identifier,
      type: input.type ?? "app-user",
      accountType: input.account_type ?? "express",
      email: input.email ?? null,
      editTokenHash: hashToken(token),
      editTokenSealed: ctx.sealer.seal(token, id),
      provider: ctx.provider.id,
    })
    .onConflictDoNothing({ target: [kycs.appId, kycs.identifier] })
    .returning();
  const row =
    inserted ??
    (
      await deps.db
        .select()
        .from(kycs)
        .where(and(eq(kycs.appId, appId), eq(kycs.identifier, input.identifier)))
    )[0];
  // Deleted between the conflict and the read: rare enough that the caller may simply retry.
  if (!row) throw conflict("The record for this identifier was deleted meanwhile: try again");
  return { kyc: presentKyc(row, app, ctx.sealer, deps.config.publicUrl), created: Boolean(inserted) };
}

export async function getKyc(deps: Deps, ctx: KycContext, actor: Principal, appId: string, kycId: string) {
  await requireAppRole(deps.db, actor, appId, "view");
  const [row, app] = await Promise.all([loadKyc(deps, appId, kycId), loadApp(deps, appId)]);
  return presentKyc(row, app, ctx.sealer, deps.config.publicUrl);
}

export async function listKycs(deps: Deps, ctx: KycContext, actor: Principal, appId: string, page: Page) {
  await requireAppRole(deps.db, actor, appId, "view");
  const app = await loadApp(deps, appId);
  const { rows, total, neighbours } = await pageOfRows(deps, page, {
    table: kycs,
    scope: eq(kycs.appId, appId),
    newestFirst: true,
  });
  return { items: rows.map((r) => presentKyc(r, app, ctx.sealer, deps.config.publicUrl)), total, neighbours };
}

export async function setActive(
  deps: Deps,
  ctx: KycContext,
  actor: Principal,
  appId: string,
  kycId: string,
  active: boolean,
) {
  await requireAppRole(deps.db, actor, appId, "edit");
  const row = await updateAppRecord(deps.db, kycs, appId, kycId, "KYC", { active, updatedAt: deps.now() });
  return presentKyc(row, await loadApp(deps, appId), ctx.sealer, deps.config.publicUrl);
}

/** A new edit token; the old hash is overwritten in the same statement, so the old token dies at once. */
export async function refreshToken(
  deps: Deps,
  ctx: KycContext,
  actor: Principal,
  appId: string,
  kycId: string,
) {
  await requireAppRole(deps.db, actor, appId, "edit");
  const token = newEditToken();
  const row = await updateAppRecord(deps.db, kycs, appId, kycId, "KYC", {
    editTokenHash: hashToken(token),
    editTokenSealed: ctx.sealer.seal(token, kycId),
    updatedAt: deps.now(),
  });
  return presentKyc(row, await loadApp(deps, appId), ctx.sealer, deps.config.publicUrl);
}

/**
 * Deletes our record; the provider account is left as is (Connect keeps accounts for audits).
 * Refused (409, counts in `open`) while payments whose seller share goes to this seller are open:
 * their share would have nowhere to go. Settle, cancel or refund them, or point their payout at
 * another seller (`POST /payments/{app_id}/{payment_id}/seller`), then delete.
 */
export async function deleteKyc(deps: Deps, actor: Principal, appId: string, kycId: string) {
  await requireAppRole(deps.db, actor, appId, "edit");
  await deps.db.transaction(async (tx) => {
    // Locked, then counted: a payment being opened for this seller reads the record (its standing)
    // and a re-pointed payout locks it too, so neither slips in between the count and the delete.
    await appRecord(tx, kycs, appId, kycId, "KYC", "update");
    const { counts: open, described } = await deps.sellerMoneyInFlight(tx, kycId);
    if (described) {
      throw new AppError(
        "conflict",
        `This seller has payments open (${described}): settle, cancel or refund them, or point their payout at another seller, before deleting the record`,
        { extensions: { open } },
      );
    }
    await tx.delete(kycs).where(eq(kycs.id, kycId));
  });
}
