import { and, eq } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import { recordAudit } from "../../platform/audit/log.ts";
import type { Principal } from "../../platform/auth/principal.ts";
import { normalizeAccount } from "../../platform/chains/accounts.ts";
import type { Executor } from "../../platform/db/index.ts";
import { appRecord, deleteUnusedAppRecord } from "../../platform/http/app-record.ts";
import { invalid, notFound } from "../../platform/http/errors.ts";
import { type Page, pageOfSelect } from "../../platform/http/pagination.ts";
import { newId } from "../../platform/ids.ts";
import { requireAppRole } from "../apps/access.ts";
import { getApp } from "../apps/service.ts";
import type { WalletRow } from "../wallets/presenters.ts";
import { shareLockWallet, walletJoin } from "../wallets/queries.ts";
import { type CallDataInput, prepareCallData } from "./call-data.ts";
import { exampleInput, parseParams } from "./params.ts";
import { presentTrigger } from "./presenters.ts";
import { refuseUnomittable, renderCall } from "./render.ts";
import { triggers } from "./tables.ts";

export interface TriggerInput {
  name?: string;
  wallet_id?: string;
  call_data?: CallDataInput;
  params_data?: Record<string, unknown>;
  params_data_input?: Record<string, unknown>;
  params_data_example?: string;
  custom_address_enabled?: boolean;
  custom_address?: string | null;
}

type TriggerRow = typeof triggers.$inferSelect;

/**
 * The body's wallet must be one of this app's: another app's wallet reads as unknown. The share
 * lock keeps it from being deleted before the trigger that uses it is saved.
 */
async function walletOfApp(tx: Executor, appId: string, walletId: string): Promise<WalletRow> {
  const wallet = await shareLockWallet(tx, appId, walletId);
  if (!wallet) throw invalid("/body/wallet_id", "is not a wallet of this app");
  return wallet;
}

/**
 * Everything a saved trigger must satisfy, checked on the merged record: descriptors, the call on
 * the wallet's chain, the custom address, and the example input.
 */
async function validated(wallet: WalletRow, merged: Required<Omit<TriggerInput, "wallet_id" | "name">>) {
  const chain = wallet.type;
  const params = parseParams(merged.params_data, "/body/params_data");
  const callData = await prepareCallData(chain, merged.call_data, params, "/body/call_data");
  let customAddress = merged.custom_address;
  if (customAddress !== null) {
    customAddress = normalizeAccount(chain, customAddress) ?? null;
    if (!customAddress) throw invalid("/body/custom_address", `is not a valid ${chain} address`);
  } else if (merged.custom_address_enabled) {
    throw invalid("/body/custom_address", "is required when custom_address_enabled is true");
  }
  const trigger = {
    callData,
    paramsData: merged.params_data,
    customAddressEnabled: merged.custom_address_enabled,
    customAddress,
  };
  const input = Object.keys(merged.params_data_input).length > 0 ? merged.params_data_input : null;
  // A given example is rendered end to end, proving at save time that the call can be encoded.
  // A generated one is not: descriptors cannot say that a string must be, say, a WAX asset.
  if (input) await renderCall(trigger, wallet, input, "/body/params_data_input", "/body/call_data");
  await refuseUnomittable(trigger, wallet, params, input ?? exampleInput(params));
  return {
    ...trigger,
    paramsDataInput: input,
    paramsDataExample: merged.params_data_example || JSON.stringify(input ?? exampleInput(params)),
  };
}

/** A trigger's wallet, presented within it: a join of the statement that reads the trigger. */
const triggerWallet = walletJoin(triggers.walletId);

async function loadTrigger(db: Executor, appId: string, triggerId: string) {
  const [row] = await db
    .select({ trigger: triggers, wallet: triggerWallet.columns })
    .from(triggers)
    .innerJoin(triggerWallet.table, triggerWallet.on)
    .where(and(eq(triggers.appId, appId), eq(triggers.id, triggerId)));
  if (!row) throw notFound("Trigger");
  return row;
}

export async function createTrigger(
  deps: Deps,
  actor: Principal,
  appId: string,
  input: TriggerInput & { name: string; wallet_id: string; call_data: CallDataInput },
) {
  await requireAppRole(deps.db, actor, appId, "edit");
  const row = await deps.db.transaction(async (tx) => {
    const wallet = await walletOfApp(tx, appId, input.wallet_id);
    const fields = await validated(wallet, {
      call_data: input.call_data,
      params_data: input.params_data ?? {},
      params_data_input: input.params_data_input ?? {},
      params_data_example: input.params_data_example ?? "",
      custom_address_enabled: input.custom_address_enabled ?? false,
      custom_address: input.custom_address ?? null,
    });
    const [trigger] = await tx
      .insert(triggers)
      .values({ id: newId("trg"), appId, walletId: wallet.id, name: input.name, ...fields })
      .returning();
    await recordAudit(tx, actor, { appId, action: "trigger.create", targetId: trigger.id });
    return { trigger, wallet };
  });
  return presentTrigger(row.trigger, row.wallet, await getApp(deps, actor, appId));
}

export async function listTriggers(deps: Deps, actor: Principal, appId: string, page: Page) {
  const app = await getApp(deps, actor, appId);
  const { rows, total, neighbours } = await pageOfSelect(
    deps,
    page,
    { table: triggers, scope: eq(triggers.appId, appId), newestFirst: true },
    deps.db
      .select({ trigger: triggers, wallet: triggerWallet.columns })
      .from(triggers)
      .innerJoin(triggerWallet.table, triggerWallet.on)
      .$dynamic(),
    (r) => r.trigger.id,
  );
  return { items: rows.map((r) => presentTrigger(r.trigger, r.wallet, app)), total, neighbours };
}

export async function getTrigger(deps: Deps, actor: Principal, appId: string, triggerId: string) {
  const app = await getApp(deps, actor, appId);
  const row = await loadTrigger(deps.db, appId, triggerId);
  return presentTrigger(row.trigger, row.wallet, app);
}

export async function updateTrigger(
  deps: Deps,
  actor: Principal,
  appId: string,
  triggerId: string,
  input: TriggerInput,
) {
  await requireAppRole(deps.db, actor, appId, "edit");
  const row = await deps.db.transaction(async (tx) => {
    const current = await appRecord(tx, triggers, appId, triggerId, "Trigger", "update");
    const wallet = await walletOfApp(tx, appId, input.wallet_id ?? current.walletId);
    if (input.call_data === undefined && !(wallet.type in (current.callData as object))) {
      throw invalid("/body/call_data", `is required: the new wallet is on another chain (${wallet.type})`);
    }
    const fields = await validated(wallet, {
      call_data: input.call_data ?? (current.callData as CallDataInput),
      params_data: input.params_data ?? (current.paramsData as Record<string, unknown>),
      params_data_input:
        input.params_data_input ?? ((current.paramsDataInput ?? {}) as Record<string, unknown>),
      // The stored example stays while the parameters and example input stay; otherwise it is
      // made again from the new ones.
      params_data_example:
        input.params_data_example ??
        (input.params_data === undefined && input.params_data_input === undefined
          ? (current.paramsDataExample ?? "")
          : ""),
      custom_address_enabled: input.custom_address_enabled ?? current.customAddressEnabled,
      custom_address: input.custom_address === undefined ? current.customAddress : input.custom_address,
    });
    const [trigger] = await tx
      .update(triggers)
      .set({ name: input.name, walletId: wallet.id, ...fields, updatedAt: deps.now() })
      .where(eq(triggers.id, triggerId))
      .returning();
    await recordAudit(tx, actor, { appId, action: "trigger.update", targetId: triggerId });
    return { trigger, wallet };
  });
  return presentTrigger(row.trigger, row.wallet, await getApp(deps, actor, appId));
}

export async function deleteTrigger(deps: Deps, actor: Principal, appId: string, triggerId: string) {
  await requireAppRole(deps.db, actor, appId, "edit");
  const trigger = { table: triggers, appId, id: triggerId, what: "Trigger", action: "trigger.delete" };
  // A price keeps the id of the call its payments run: deleting the trigger would strand them.
  await deleteUnusedAppRecord(deps.db, actor, trigger, {
    count: (tx) => deps.referrers.pricesOfTrigger(tx, triggerId),
    refusal: (used) => `The trigger is used by ${used} price(s); unlink or delete them first`,
  });
}

/** The call the trigger would make for `input`, without sending anything. */
export async function renderTrigger(
  deps: Deps,
  actor: Principal,
  appId: string,
  triggerId: string,
  input: Record<string, unknown> | undefined,
) {
  await requireAppRole(deps.db, actor, appId, "view");
  const { trigger, wallet } = await loadTrigger(deps.db, appId, triggerId);
  return renderCall(trigger as TriggerRow, wallet, input ?? {});
}
