import { and, eq } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import type { Action, Principal } from "../../platform/auth/principal.ts";
import { collectionProblems } from "../../platform/chains/solana-collections.ts";
import { treeCost, validateTree } from "../../platform/chains/solana-trees.ts";
import { AppError, notFound } from "../../platform/http/errors.ts";
import { type Page, pageOfRows } from "../../platform/http/pagination.ts";
import { newId } from "../../platform/ids.ts";
import { requireAppRole } from "../apps/access.ts";
import { envelopeColumns } from "../wallets/secrets.ts";
import { loadWallet } from "../wallets/service.ts";
import { type CreationJob, type CreationKind, creationContext, SEND_CREATION_JOB } from "./job-names.ts";
import { presentCollection, presentTree } from "./presenters.ts";
import { solanaCollections, solanaTrees } from "./tables.ts";

// The Solana SDK comes with these two, loaded when a tree or collection is first made: a process
// that makes none never loads it (docs/benchmarks.md, "Chain SDKs loaded when first used").
const solanaTx = () => import("../../platform/chains/solana-tx.ts");
const compression = () => import("../../platform/chains/solana-compression.ts");

/** Solana's MAX_PERMITTED_DATA_LENGTH: no account, a tree with a deep canopy included, may be larger. */
const MAX_ACCOUNT_BYTES = 10 * 1024 * 1024;

export interface CreateTreeInput {
  max_depth_size_pair: { max_depth: number; max_buffer_size: number };
  canopy_depth: number;
}

export interface CreateCollectionInput {
  name: string;
  symbol: string;
  uri: string;
}

/** A Solana wallet of the app, or 404: another app's wallet and a wallet of another chain alike. */
async function solanaWallet(deps: Deps, actor: Principal, appId: string, walletId: string, action: Action) {
  await requireAppRole(deps.db, actor, appId, action);
  const wallet = await loadWallet(deps.db, appId, walletId);
  if (wallet.type !== "solana") throw notFound("Wallet");
  return { wallet, network: wallet.testNetwork ? ("testnet" as const) : ("mainnet" as const) };
}

function sealNewAccount(deps: Deps, kind: CreationKind, id: string, secret: string) {
  return envelopeColumns(deps.custody.seal(creationContext(kind, id), secret));
}

/** Stores the new account's row and, in the same transaction, the job that creates it on chain. */
async function insertWithCreationJob<T extends typeof solanaTrees | typeof solanaCollections>(
  deps: Deps,
  kind: CreationKind,
  table: T,
  values: T["$inferInsert"],
): Promise<T["$inferSelect"]> {
  return deps.db.transaction(async (tx) => {
    // Drizzle cannot type an insert into either of two tables; `values` is typed by the caller's.
    const [created] = await tx
      .insert(table)
      .values(values as never)
      .returning();
    await deps.jobs.send<CreationJob>(tx, SEND_CREATION_JOB, { kind, id: values.id });
    return created as T["$inferSelect"];
  });
}

export async function createTree(
  deps: Deps,
  actor: Principal,
  appId: string,
  walletId: string,
  input: CreateTreeInput,
) {
  const { wallet, network } = await solanaWallet(deps, actor, appId, walletId, "edit");
  const { max_depth: maxDepth, max_buffer_size: maxBufferSize } = input.max_depth_size_pair;
  const problems = validateTree(maxDepth, maxBufferSize, input.canopy_depth);
  const cost = treeCost(maxDepth, maxBufferSize, input.canopy_depth);
  if (!problems.length && cost.space > MAX_ACCOUNT_BYTES) {
    problems.push({
      field: "canopy_depth",
      message: `the tree account would take ${cost.space} bytes, above Solana's ${MAX_ACCOUNT_BYTES}-byte account limit: use a smaller canopy`,
    });
  }
  if (problems.length) {
    const errors = problems.map((p) => ({ path: `/body/${p.field}`, message: p.message }));
    throw new AppError("validation_failed", errors.map((e) => `${e.path}: ${e.message}`).join("; "), {
      errors,
    });
  }
  const id = newId("tree");
  const { generateSolanaSecret, solanaSigner } = await solanaTx();
  const secret = generateSolanaSecret();
  const { address: treeAddress } = await solanaSigner(secret);
  const row = await insertWithCreationJob(deps, "tree", solanaTrees, {
    id,
    appId,
    walletId: wallet.id,
    network,
    address: treeAddress,
    maxDepth,
    maxBufferSize,
    canopyDepth: input.canopy_depth,
    accountSize: cost.space,
    rentLamports: cost.lamports,
    ...sealNewAccount(deps, "tree", id, secret),
  });
  return presentTree(row);
}

export async function createCollection(
  deps: Deps,
  actor: Principal,
  appId: string,
  walletId: string,
  input: CreateCollectionInput,
) {
  const { wallet, network } = await solanaWallet(deps, actor, appId, walletId, "edit");
  const problems = collectionProblems(input);
  if (problems.length) {
    const errors = problems.map((p) => {
      const [field, ...message] = p.split(": ");
      return { path: `/body/${field}`, message: message.join(": ") };
    });
    throw new AppError("validation_failed", problems.join("; "), { errors });
  }
  const id = newId("col");
  const { generateSolanaSecret, solanaSigner } = await solanaTx();
  const secret = generateSolanaSecret();
  const { address: mint } = await solanaSigner(secret);
  const { tokenAccount, metadata, masterEdition } = await (await compression()).collectionAccounts(
    wallet.accountId,
    mint,
  );
  const row = await insertWithCreationJob(deps, "collection", solanaCollections, {
    id,
    appId,
    walletId: wallet.id,
    network,
    name: input.name,
    symbol: input.symbol,
    uri: input.uri,
    mintAddress: mint,
    tokenAccountAddress: tokenAccount,
    metadataAccountAddress: metadata,
    masterEditionAccountAddress: masterEdition,
    ...sealNewAccount(deps, "collection", id, secret),
  });
  return presentCollection(row);
}

/** A page of the wallet's trees or collections, newest first, once the caller may view the wallet. */
async function pageOfWallet<T extends typeof solanaTrees | typeof solanaCollections>(
  deps: Deps,
  actor: Principal,
  appId: string,
  walletId: string,
  page: Page,
  table: T,
) {
  await solanaWallet(deps, actor, appId, walletId, "view");
  return pageOfRows(deps, page, {
    table,
    scope: and(eq(table.appId, appId), eq(table.walletId, walletId)),
    newestFirst: true,
  });
}

export async function listTrees(deps: Deps, actor: Principal, appId: string, walletId: string, page: Page) {
  const { rows, total, neighbours } = await pageOfWallet(deps, actor, appId, walletId, page, solanaTrees);
  return { items: rows.map(presentTree), total, neighbours };
}

export async function listCollections(
  deps: Deps,
  actor: Principal,
  appId: string,
  walletId: string,
  page: Page,
) {
  const { rows, total, neighbours } = await pageOfWallet(
    deps,
    actor,
    appId,
    walletId,
    page,
    solanaCollections,
  );
  return { items: rows.map(presentCollection), total, neighbours };
}
