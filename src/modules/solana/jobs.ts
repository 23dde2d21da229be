import { eq } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import {
  ChainError,
  isSigned,
  type SentTransaction,
  type SolanaCall,
} from "../../platform/chains/adapter.ts";
import type { Executor } from "../../platform/db/index.ts";
import type { JobDefinition } from "../../platform/jobs/index.ts";
import { decryptWalletSecret, envelopeOf } from "../wallets/secrets.ts";
import {
  type CreationJob,
  type CreationKind,
  creationContext,
  FOLLOW_CREATION_JOB,
  SEND_CREATION_JOB,
} from "./job-names.ts";
import { type SolanaCollectionRow, type SolanaTreeRow, solanaCollections, solanaTrees } from "./tables.ts";

// The chain answers these the same way however often we ask: the creation fails, no retry.
const FINAL_CHAIN_ERRORS = new Set([
  "rejected",
  "invalid_call",
  "invalid_tree",
  "invalid_collection",
  "bad_key",
  "missing_key",
  "missing_account",
  "wrong_chain",
]);
/** A dropped transaction (expired blockhash) is sent again with the same new account this often. */
const MAX_SENDS = 3;

type Row = SolanaTreeRow | SolanaCollectionRow;
type ChainState = Partial<
  Pick<Row, "status" | "txSignature" | "sentTransaction" | "sendAttempts" | "error" | "updatedAt">
>;

async function load(db: Executor, job: CreationJob): Promise<Row | undefined> {
  const table = job.kind === "tree" ? solanaTrees : solanaCollections;
  const [row] = await db.select().from(table).where(eq(table.id, job.id));
  return row;
}

async function save(db: Executor, job: CreationJob, state: ChainState) {
  if (job.kind === "tree") await db.update(solanaTrees).set(state).where(eq(solanaTrees.id, job.id));
  else await db.update(solanaCollections).set(state).where(eq(solanaCollections.id, job.id));
}

/** The creating transaction, built with the compression builders and signed by the new account too. */
async function buildCall(
  kind: CreationKind,
  row: Row,
  walletKey: string,
  accountKey: string,
): Promise<SolanaCall> {
  // Loaded here, with the Solana SDK, when a creation is first sent (service.ts says why).
  const { solanaCallFromInstructions, solanaSigner } = await import("../../platform/chains/solana-tx.ts");
  const { buildCreateCollection, buildCreateTree } = await import(
    "../../platform/chains/solana-compression.ts"
  );
  const payer = await solanaSigner(walletKey);
  const account = await solanaSigner(accountKey);
  if (kind === "tree") {
    const tree = row as SolanaTreeRow;
    const plan = await buildCreateTree({
      payer,
      merkleTree: account,
      maxDepth: tree.maxDepth,
      maxBufferSize: tree.maxBufferSize,
      canopyDepth: tree.canopyDepth,
    });
    return solanaCallFromInstructions(plan.instructions, [accountKey]);
  }
  const collection = row as SolanaCollectionRow;
  const plan = await buildCreateCollection({
    payer,
    mint: account,
    name: collection.name,
    symbol: collection.symbol,
    uri: collection.uri,
  });
  return solanaCallFromInstructions(plan.instructions, [accountKey]);
}

async function fail(deps: Deps, job: CreationJob, message: string) {
  await save(deps.db, job, { status: "failed", error: message, updatedAt: deps.now() });
}

/**
 * Signs the creating transaction and stores the signed bytes before broadcasting them, so a run
 * that dies after the broadcast broadcasts the same bytes on retry (one transaction, one fee)
 * instead of signing another.
 */
async function send(deps: Deps, job: CreationJob) {
  const row = await load(deps.db, job);
  if (row?.status !== "pending") return;
  const recorded = row.sentTransaction;
  if (recorded && !isSigned(recorded)) {
    // Broadcast and recorded already (this job ran before and died after recording): follow it.
    await deps.db.transaction((tx) => deps.jobs.send<CreationJob>(tx, FOLLOW_CREATION_JOB, job));
    return;
  }
  const adapter = deps.chains.adapter("solana", row.network);
  let sent: SentTransaction;
  try {
    let signed = recorded && isSigned(recorded) ? recorded : undefined;
    if (!signed) {
      const wallet = await decryptWalletSecret(deps, row.walletId);
      const accountKey = deps.custody.open(creationContext(job.kind, row.id), envelopeOf(row));
      const call = await buildCall(job.kind, row, wallet.secret, accountKey);
      signed = await adapter.sign(call, { privateKey: wallet.secret });
      await save(deps.db, job, {
        sentTransaction: signed,
        updatedAt: deps.now(),
      });
    }
    sent = await adapter.broadcast(signed);
  } catch (error) {
    if (error instanceof ChainError && error.code === "stale") {
      // Its blockhash expired unsent: the retry signs again with a fresh one.
      await save(deps.db, job, { sentTransaction: null, updatedAt: deps.now() });
    }
    if (error instanceof ChainError && FINAL_CHAIN_ERRORS.has(error.code))
      return fail(deps, job, error.message);
    throw error; // the node is unreachable or busy: the job retries with backoff
  }
  await deps.db.transaction(async (tx) => {
    await save(tx, job, {
      sentTransaction: sent,
      txSignature: sent.transactionId,
      sendAttempts: row.sendAttempts + 1,
      updatedAt: deps.now(),
    });
    await deps.jobs.send<CreationJob>(tx, FOLLOW_CREATION_JOB, job, { startAfter: 1 });
  });
}

async function follow(deps: Deps, job: CreationJob) {
  const row = await load(deps.db, job);
  if (row?.status !== "pending" || !row.sentTransaction) return;
  const sent = row.sentTransaction;
  const status = await deps.chains.adapter("solana", sent.network).status(sent);
  await deps.db.transaction(async (tx) => {
    const now = deps.now();
    switch (status.state) {
      case "confirmed":
        return save(tx, job, { status: "confirmed", error: null, updatedAt: now });
      case "failed": {
        const reason = status.error?.reason ? ` (${status.error.reason})` : "";
        return save(tx, job, {
          status: "failed",
          error: `${status.error?.message ?? "the transaction failed"}${reason}`,
          updatedAt: now,
        });
      }
      case "dropped":
        if (row.sendAttempts >= MAX_SENDS) {
          return save(tx, job, {
            status: "failed",
            error: `the transaction was dropped ${row.sendAttempts} times`,
            updatedAt: now,
          });
        }
        // Same new account, fresh blockhash: the previous transaction can no longer land.
        await save(tx, job, { sentTransaction: null, txSignature: "", updatedAt: now });
        await deps.jobs.send<CreationJob>(tx, SEND_CREATION_JOB, job);
        return;
      default: {
        const wait = Math.max(1, Math.min(30, Math.round(status.averageSeconds || 1)));
        await deps.jobs.send<CreationJob>(tx, FOLLOW_CREATION_JOB, job, { startAfter: wait });
      }
    }
  });
}

export function solanaJobs(deps: Deps): JobDefinition<CreationJob>[] {
  return [
    { name: SEND_CREATION_JOB, retryLimit: 10, handle: (data) => send(deps, data) },
    { name: FOLLOW_CREATION_JOB, retryLimit: 10, handle: (data) => follow(deps, data) },
  ];
}
