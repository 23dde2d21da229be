import {
  address,
  type Base64EncodedWireTransaction,
  type Blockhash,
  createSolanaRpc,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  type Signature,
} from "@solana/kit";
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
import { NodeAdapter } from "./node-adapter.ts";
import { buildSignedTransaction, callInstructions, solanaSigner } from "./solana-tx.ts";

/**
 * Solana through @solana/kit's RPC client. A transaction is `pending` while processed or
 * confirmed and `confirmed` once finalized (the rule in docs/chains.md); it is `dropped` when it
 * never landed and its blockhash expired, so it can no longer land.
 */
export class SolanaAdapter extends NodeAdapter {
  readonly chain = "solana" as const;
  private readonly rpc: ReturnType<typeof createSolanaRpc>;

  constructor(options: RpcAdapterOptions) {
    super(options);
    this.rpc = createSolanaRpc(options.rpcUrl);
  }

  async sign(prepared: PreparedCall, secret: SignerSecret): Promise<SignedTransaction> {
    const call = expectCall(prepared, "solana");
    const signer = await solanaSigner(secret.privateKey);
    const { value: lifetime } = await this.rpc.getLatestBlockhash({ commitment: "confirmed" }).send();
    const extraSigners = await Promise.all((call.extraSigners ?? []).map(solanaSigner));
    const transaction = await buildSignedTransaction(callInstructions(call), signer, lifetime, extraSigners);
    return {
      chain: "solana",
      network: this.network,
      transactionId: getSignatureFromTransaction(transaction),
      from: signer.address,
      sentAt: this.now().toISOString(),
      lastValidBlockHeight: lifetime.lastValidBlockHeight.toString(),
      blockhash: lifetime.blockhash,
      raw: getBase64EncodedWireTransaction(transaction),
    };
  }

  /**
   * The same bytes sent twice are one transaction: the runtime keeps one result per signature. A
   * signature that never landed and whose blockhash expired can no longer land: `stale`.
   */
  async broadcast(signed: SignedTransaction): Promise<SentTransaction> {
    const { value } = await this.rpc
      .getSignatureStatuses([signed.transactionId as Signature], { searchTransactionHistory: true })
      .send()
      .catch(() => ({ value: [null] }));
    if (value[0]) return asSent(signed, this.now());
    if (signed.blockhash) {
      const valid = await this.rpc
        .isBlockhashValid(signed.blockhash as Blockhash, { commitment: "processed" })
        .send()
        .catch(() => ({ value: true }));
      if (!valid.value)
        throw new ChainError("stale", "its blockhash expired before it landed: sign the call again");
    }
    try {
      await this.rpc
        .sendTransaction(signed.raw as Base64EncodedWireTransaction, {
          encoding: "base64",
          // A failing instruction is reported by `status` with its logs, like a revert on EVM.
          skipPreflight: true,
        })
        .send();
    } catch (error) {
      const message = (error as Error).message;
      throw new ChainError(refusalCode(message), `the node refused the transaction: ${message}`, {
        cause: error,
      });
    }
    return asSent(signed, this.now());
  }

  discard(): void {
    // Nothing is reserved: the blockhash lets any number of transactions be signed.
  }

  async status(sent: SentTransaction): Promise<TransactionStatus> {
    const signature = sent.transactionId as Signature;
    const base = this.statusBase();
    const { value } = await this.rpc
      .getSignatureStatuses([signature], { searchTransactionHistory: true })
      .send();
    const found = value[0];
    if (!found) {
      if (sent.blockhash && sent.lastValidBlockHeight) {
        const valid = await this.rpc
          .isBlockhashValid(sent.blockhash as Blockhash, { commitment: "processed" })
          .send()
          .catch(() => ({ value: true }));
        if (!valid.value) {
          return {
            ...base,
            state: "dropped",
            confirmations: 0,
            error: { message: "blockhash expired before landing" },
          };
        }
      }
      return { ...base, state: "pending", confirmations: 0 };
    }
    const stage = found.confirmationStatus ?? "processed";
    // A null count means rooted, i.e. finalized.
    const confirmations =
      stage === "finalized" || found.confirmations === null
        ? base.requiredConfirmations
        : Math.min(Number(found.confirmations), base.requiredConfirmations - 1);
    if (found.err) {
      const logs = await this.logs(signature);
      return {
        ...base,
        state: "failed",
        confirmations,
        stage,
        error: { message: "transaction failed", reason: JSON.stringify(found.err, bigintJson), logs },
      };
    }
    return {
      ...base,
      state: stage === "finalized" ? "confirmed" : "pending",
      confirmations,
      stage,
      output: { slot: Number(found.slot) },
    };
  }

  async balance(account: string): Promise<bigint> {
    try {
      const { value } = await this.rpc.getBalance(address(account), { commitment: "confirmed" }).send();
      return BigInt(value);
    } catch (error) {
      throw new ChainError("node_unavailable", `the Solana node failed: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }

  private async logs(signature: Signature): Promise<string[]> {
    const tx = await this.rpc
      .getTransaction(signature, {
        commitment: "confirmed",
        maxSupportedTransactionVersion: 0,
        encoding: "json",
      })
      .send()
      .catch(() => null);
    return [...(tx?.meta?.logMessages ?? [])];
  }
}

function bigintJson(_key: string, value: unknown): unknown {
  return typeof value === "bigint" ? value.toString() : value;
}
