import { JsonRpcProvider } from "@near-js/providers";
import { KeyPairSigner } from "@near-js/signers";
import {
  actionCreators,
  createTransaction,
  SignedTransaction as NearSignedTransaction,
} from "@near-js/transactions";
import type { FinalExecutionOutcome } from "@near-js/types";
import { baseDecode, baseEncode } from "@near-js/utils";
import {
  asSent,
  ChainError,
  expectCall,
  type PreparedCall,
  type RpcAdapterOptions,
  refusalCode,
  type SentTransaction,
  type SignedTransaction,
  type SignerSecret,
  type TransactionStatus,
} from "./adapter.ts";
import { KeyedMutex } from "./mutex.ts";
import { NodeAdapter } from "./node-adapter.ts";

export interface NearAdapterOptions extends RpcAdapterOptions {
  /** RPC retries of the SDK; tests lower them. */
  retries?: number;
}

/** How far each `final_execution_status` is along the way to FINAL, in confirmations. */
const STAGE_CONFIRMATIONS: Record<string, number> = {
  NONE: 0,
  INCLUDED: 1,
  EXECUTED_OPTIMISTIC: 1,
  INCLUDED_FINAL: 2,
  EXECUTED: 2,
};

/**
 * NEAR through @near-js: one function-call action with gas and deposit, signed with the wallet's
 * full-access key. `status` asks the node for the transaction with `wait_until: FINAL`; a call is
 * confirmed only when FINAL and every receipt succeeded, because a receipt can fail (a panic in a
 * cross-contract call) while the transaction itself is final and its top-level status reads success.
 */
export class NearAdapter extends NodeAdapter {
  readonly chain = "near" as const;
  private readonly provider: JsonRpcProvider;
  private readonly locks = new KeyedMutex();
  private readonly nextNonce = new Map<string, bigint>();

  constructor(options: NearAdapterOptions) {
    super(options);
    this.provider = new JsonRpcProvider(
      { url: options.rpcUrl },
      { retries: options.retries ?? 3, backoff: 2, wait: 200 },
    );
  }

  async sign(prepared: PreparedCall, secret: SignerSecret): Promise<SignedTransaction> {
    const call = expectCall(prepared, "near");
    if (!secret.accountId) throw new ChainError("missing_account", "a NEAR wallet needs its account id");
    const accountId = secret.accountId;
    let signer: KeyPairSigner;
    try {
      signer = KeyPairSigner.fromSecretKey(secret.privateKey as `ed25519:${string}`);
    } catch {
      throw new ChainError("bad_key", "the NEAR key is not an ed25519:… secret key");
    }
    const publicKey = await signer.getPublicKey();
    const lockKey = nonceKey(accountId, publicKey.toString());
    return this.locks.run(lockKey, async () => {
      const accessKey = await this.provider
        .viewAccessKey(accountId, publicKey, { finality: "final" })
        .catch((error) => {
          throw new ChainError(
            "access_key_missing",
            `no usable access key of ${accountId}: ${(error as Error).message}`,
            { cause: error },
          );
        });
      const block = await this.provider.block({ finality: "final" });
      const chainNext = BigInt(accessKey.nonce) + 1n;
      const local = this.nextNonce.get(lockKey) ?? 0n;
      const nonce = chainNext > local ? chainNext : local;
      // Reserved now, so the next call signed with this key takes the following nonce.
      this.nextNonce.set(lockKey, nonce + 1n);
      const action = actionCreators.functionCall(
        call.methodName,
        call.args as object,
        call.gas,
        call.deposit,
      );
      const tx = createTransaction(
        accountId,
        publicKey,
        call.receiverId,
        nonce,
        [action],
        baseDecode(block.header.hash),
      );
      const [hash, signed] = await signer.signTransaction(tx);
      return {
        chain: "near",
        network: this.network,
        transactionId: baseEncode(hash),
        from: accountId,
        sentAt: this.now().toISOString(),
        nonce: Number(nonce),
        publicKey: publicKey.toString(),
        raw: Buffer.from(signed.encode()).toString("base64"),
      };
    });
  }

  /**
   * A node answers a transaction it already has with its status; one whose nonce was used shows
   * whether that was this transaction (it is known by hash) or another one (`stale`).
   */
  async broadcast(signed: SignedTransaction): Promise<SentTransaction> {
    const transaction = NearSignedTransaction.decode(Buffer.from(signed.raw, "base64"));
    try {
      await this.provider.sendTransactionUntil(transaction, "NONE");
    } catch (error) {
      const message = String((error as Error).message);
      // A timed-out send may still land: the hash is known, so follow it rather than resend.
      if (/timeout/i.test(message)) return asSent(signed, this.now());
      this.discard(signed);
      if (/InvalidNonce|Expired/i.test(message)) {
        if (await this.known(signed)) return asSent(signed, this.now());
        throw new ChainError(
          "stale",
          `the transaction can no longer land (${message}): sign the call again`,
          {
            cause: error,
          },
        );
      }
      throw new ChainError(refusalCode(message), `the node refused the transaction: ${message}`, {
        cause: error,
      });
    }
    return asSent(signed, this.now());
  }

  discard(signed: SignedTransaction): void {
    // The next signature asks the node for the nonce rather than leave a gap.
    if (signed.publicKey) this.nextNonce.delete(nonceKey(signed.from, signed.publicKey));
  }

  private async known(signed: SignedTransaction): Promise<boolean> {
    try {
      await this.provider.txStatus(signed.transactionId, signed.from, "NONE");
      return true;
    } catch (error) {
      const message = String((error as Error).message);
      if (/doesn't exist|UNKNOWN_TRANSACTION/i.test(message)) return false;
      // Not knowing is not "unknown": ask again later rather than sign a second transaction.
      throw new ChainError("node_unavailable", `the NEAR node failed: ${message}`, { cause: error });
    }
  }

  async status(sent: SentTransaction): Promise<TransactionStatus> {
    const base = this.statusBase();
    let outcome: FinalExecutionOutcome & { final_execution_status?: string };
    try {
      outcome = await this.provider.txStatus(sent.transactionId, sent.from, "FINAL");
    } catch (error) {
      const message = String((error as Error).message);
      // The node gave up waiting for finality, or has not seen the transaction yet.
      if (/timeout|doesn't exist|UNKNOWN_TRANSACTION/i.test(message)) {
        return {
          ...base,
          state: "pending",
          confirmations: 0,
          stage: /timeout/i.test(message) ? "timeout" : "unknown",
        };
      }
      throw new ChainError("node_unavailable", `the NEAR node failed: ${message}`, { cause: error });
    }
    const stage = outcome.final_execution_status ?? "FINAL";
    const receipts = [outcome.transaction_outcome, ...outcome.receipts_outcome];
    const logs = receipts.flatMap((r) => r.outcome.logs);
    const failure = receipts.find((r) => isFailure(r.outcome.status));
    const topFailure = isFailure(outcome.status) ? outcome.status : undefined;
    if (failure || topFailure) {
      const failed = topFailure ?? (failure?.outcome.status as { Failure: unknown } | undefined);
      const reason = JSON.stringify(failed?.Failure ?? null);
      return {
        ...base,
        state: "failed",
        confirmations: stage === "FINAL" ? base.requiredConfirmations : (STAGE_CONFIRMATIONS[stage] ?? 0),
        stage,
        error: { message: failure ? `receipt ${failure.id} failed` : "transaction failed", reason, logs },
      };
    }
    if (stage !== "FINAL") {
      return { ...base, state: "pending", confirmations: STAGE_CONFIRMATIONS[stage] ?? 0, stage };
    }
    return {
      ...base,
      state: "confirmed",
      confirmations: base.requiredConfirmations,
      stage,
      output: { value: successValue(outcome.status), logs, receipts: outcome.receipts_outcome.length },
    };
  }

  async balance(account: string): Promise<bigint> {
    try {
      const view = await this.provider.query({
        request_type: "view_account",
        finality: "final",
        account_id: account,
      });
      return BigInt((view as unknown as { amount: string }).amount);
    } catch (error) {
      throw new ChainError("node_unavailable", `the NEAR node failed: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }
}

function nonceKey(accountId: string, publicKey: string): string {
  return `${accountId}/${publicKey}`;
}

function isFailure(status: unknown): status is { Failure: unknown } {
  return typeof status === "object" && status !== null && "Failure" in status;
}

function successValue(status: unknown): unknown {
  if (typeof status !== "object" || status === null || !("SuccessValue" in status)) return null;
  const raw = Buffer.from(String((status as { SuccessValue: string }).SuccessValue), "base64").toString(
    "utf8",
  );
  if (raw === "") return null;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}
