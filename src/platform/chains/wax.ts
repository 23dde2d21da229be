import {
  ABI,
  Action,
  SignedTransaction as AntelopeSignedTransaction,
  APIClient,
  APIError,
  FetchProvider,
  PackedTransaction,
  PrivateKey,
  Serializer,
  Transaction,
} from "@wharfkit/antelope";
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

export interface WaxAdapterOptions extends RpcAdapterOptions {
  /** Per-request timeout of the node API. */
  timeoutMs?: number;
}

/** Seconds a transaction stays valid; past this it can no longer be included. */
const EXPIRATION_SECONDS = 120;

/** nodeos error codes: the transaction is already known; its expiration has passed. */
const TX_DUPLICATE = 3040008;
const EXPIRED_TX = 3040005;

/** ABI-serializes an action's data (the trigger's `call_data.wax.abi`) into the hex a WaxCall carries. */
export function serializeWaxAction(abi: unknown, name: string, data: Record<string, unknown>): string {
  return Serializer.encode({ object: data, type: name, abi: ABI.from(abi as ABI) }).hexString;
}

/**
 * WAX (Antelope) through @wharfkit/antelope: the action is signed with the wallet's key for the
 * chain id and pushed; a contract assertion is refused at push time (a ChainError with code
 * `rejected`, never retried). A pushed transaction is confirmed once its block is irreversible
 * (`last_irreversible_block_num` has passed it) and that block still holds the transaction.
 */
export class WaxAdapter extends NodeAdapter {
  readonly chain = "wax" as const;
  private readonly client: APIClient;

  constructor(options: WaxAdapterOptions) {
    super(options);
    const timeoutMs = options.timeoutMs ?? 30_000;
    const timedFetch = (input: string | URL | Request, init?: RequestInit) =>
      fetch(input, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    this.client = new APIClient({ provider: new FetchProvider(options.rpcUrl, { fetch: timedFetch }) });
  }

  async sign(prepared: PreparedCall, secret: SignerSecret): Promise<SignedTransaction> {
    const call = expectCall(prepared, "wax");
    let key: PrivateKey;
    try {
      key = PrivateKey.from(secret.privateKey);
    } catch {
      throw new ChainError("bad_key", "the WAX key is neither PVT_K1_… nor WIF");
    }
    const info = await this.client.v1.chain.get_info().catch((error) => {
      throw new ChainError("node_unavailable", `the WAX node failed: ${(error as Error).message}`, {
        cause: error,
      });
    });
    const action = Action.from({
      account: call.account,
      name: call.name,
      authorization: call.authorization,
      data: call.data,
    });
    const transaction = Transaction.from({
      ...info.getTransactionHeader(EXPIRATION_SECONDS),
      actions: [action],
    });
    const signature = key.signDigest(transaction.signingDigest(info.chain_id));
    const signed = AntelopeSignedTransaction.from({ ...transaction, signatures: [signature] });
    return {
      chain: "wax",
      network: this.network,
      transactionId: String(transaction.id),
      from: secret.accountId ?? String(call.authorization[0]?.actor ?? ""),
      sentAt: this.now().toISOString(),
      expiresAt: transaction.expiration.toDate().toISOString(),
      signedAtBlock: Number(info.head_block_num),
      raw: Serializer.encode({ object: signed }).hexString,
    };
  }

  /**
   * Pushing bytes the node already has is answered `tx_duplicate`: the same transaction, once.
   * Bytes past their expiration that no block holds can no longer be included: `stale`.
   */
  async broadcast(signed: SignedTransaction): Promise<SentTransaction> {
    const transaction = Serializer.decode({ data: signed.raw, type: AntelopeSignedTransaction });
    const sent = asSent(signed, this.now());
    try {
      const response = await this.client.v1.chain.push_transaction(PackedTransaction.fromSigned(transaction));
      return { ...sent, blockNumber: Number(response.processed.block_num) };
    } catch (error) {
      if (error instanceof APIError) {
        if (error.code === TX_DUPLICATE) return sent;
        if (error.code === EXPIRED_TX) {
          // Included, or this node cannot tell: follow it by id rather than sign a second one.
          if ((await this.neverIncluded(signed)) !== true) return sent;
          throw new ChainError(
            "stale",
            "the transaction expired before it was included: sign the call again",
            {
              cause: error,
            },
          );
        }
        const reason = error.details.map((d) => d.message).join("; ") || error.message;
        // An account without the CPU, NET or RAM to pay for the transaction is an unfunded wallet.
        const unfunded = refusalCode(`${error.message} ${reason}`, "rejected") === "insufficient_funds";
        throw new ChainError(
          unfunded ? "insufficient_funds" : "rejected",
          `the node rejected the transaction: ${reason}`,
          {
            cause: error,
            reason,
          },
        );
      }
      // No answer in time: the transaction may still be included, so it is followed by id.
      if ((error as Error).name === "TimeoutError" || /timeout|abort/i.test(String(error))) return sent;
      throw new ChainError("node_unavailable", `the WAX node failed: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }

  discard(): void {
    // Nothing is reserved: Antelope transactions carry no account nonce.
  }

  async status(sent: SentTransaction): Promise<TransactionStatus> {
    const base = this.statusBase();
    const expired = sent.expiresAt !== undefined && this.now().getTime() > Date.parse(sent.expiresAt);
    const info = await this.client.v1.chain.get_info();
    const blockNumber = sent.blockNumber ?? (await this.findBlock(sent.transactionId));
    if (blockNumber === undefined) {
      if (expired)
        return {
          ...base,
          state: "dropped",
          confirmations: 0,
          error: { message: "expired before inclusion" },
        };
      return { ...base, state: "pending", confirmations: 0, stage: "unknown" };
    }
    const head = Number(info.head_block_num);
    const irreversible = Number(info.last_irreversible_block_num);
    if (irreversible < blockNumber) {
      const confirmations = Math.max(0, Math.min(head - blockNumber + 1, base.requiredConfirmations - 1));
      return {
        ...base,
        state: "pending",
        confirmations,
        stage: "in_block",
        output: { block_num: blockNumber },
      };
    }
    if (!(await this.blockHolds(blockNumber, sent.transactionId))) {
      // Its block was forked out before becoming irreversible.
      if (expired)
        return { ...base, state: "dropped", confirmations: 0, error: { message: "forked out and expired" } };
      return { ...base, state: "pending", confirmations: 0, stage: "forked" };
    }
    return {
      ...base,
      state: "confirmed",
      confirmations: base.requiredConfirmations,
      stage: "irreversible",
      output: { block_num: blockNumber },
    };
  }

  async balance(account: string): Promise<bigint> {
    try {
      const found = await this.client.v1.chain.get_account(account);
      // Liquid WAX only: staked CPU and NET pay for transactions too, but cannot be spent.
      return BigInt(found.core_liquid_balance?.units.toString() ?? "0");
    } catch (error) {
      throw new ChainError("node_unavailable", `the WAX node failed: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }

  /** Blocks are read raw: their shape differs across node versions and only ids matter here. */
  private async blockHolds(blockNumber: number, transactionId: string): Promise<boolean> {
    const { json } = await this.client.provider.call({
      path: "/v1/chain/get_block",
      params: { block_num_or_id: blockNumber },
    });
    const transactions = (json?.transactions ?? []) as { trx?: string | { id?: string } }[];
    return transactions.some((t) => (typeof t.trx === "string" ? t.trx : t.trx?.id) === transactionId);
  }

  /**
   * True only when the node's transaction-status tracking reaches back before the signature and
   * knows nothing of the transaction; a node without that plugin, or tracking too little, cannot say.
   */
  private async neverIncluded(signed: SignedTransaction): Promise<boolean> {
    const { status, json } = await this.client.provider.call({
      path: "/v1/chain/get_transaction_status",
      params: { id: signed.transactionId },
    });
    if (status !== 200 || json?.state !== "UNKNOWN" || signed.signedAtBlock === undefined) return false;
    const earliest = Number(json.earliest_tracked_block_number);
    return Number.isFinite(earliest) && earliest <= signed.signedAtBlock;
  }

  /** After a timed-out push the block is unknown: nodes with trx_finality_status can say it. */
  private async findBlock(transactionId: string): Promise<number | undefined> {
    const { status, json } = await this.client.provider.call({
      path: "/v1/chain/get_transaction_status",
      params: { id: transactionId },
    });
    if (status !== 200 || !json?.block_number || json.state === "UNKNOWN") return undefined;
    return Number(json.block_number);
  }
}
