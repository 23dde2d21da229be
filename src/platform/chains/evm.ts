import {
  BaseError,
  createPublicClient,
  decodeErrorResult,
  getAddress,
  type Hex,
  http,
  keccak256,
  type PublicClient,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import {
  asSent,
  ChainError,
  expectCall,
  type PreparedCall,
  type RpcAdapterOptions,
  refusalCode,
  type SendOptions,
  type SentTransaction,
  type SignedTransaction,
  type SignerSecret,
  type TransactionStatus,
} from "./adapter.ts";
import {
  checkWalletNetwork,
  DEFAULT_EVM_CHAIN_IDS,
  rpcUrlSetting,
  wrongChainMessage,
} from "./evm-networks.ts";
import { KeyedMutex } from "./mutex.ts";
import { NodeAdapter } from "./node-adapter.ts";

/** A replacement must outbid the stuck transaction: geth and anvil want at least +10% on both caps. */
const REPLACEMENT_BUMP_PERCENT = 125n;

export interface EvmAdapterOptions extends RpcAdapterOptions {
  resendAfterSeconds: number;
}

/**
 * EVM chains through viem. Nonces: one in-process lock per sending address, and the next nonce is
 * the larger of the chain's pending count and the last one this process used, so concurrent sends
 * from one wallet get contiguous nonces. Several processes sending from the same wallet at once can
 * still collide (the pending count lags); the losing send fails with "nonce too low" and is retried
 * by its job — see docs/chains.md.
 */
export class EvmAdapter extends NodeAdapter {
  readonly chain = "evm" as const;
  readonly client: PublicClient;
  private readonly resendAfterMs: number;
  private readonly locks = new KeyedMutex();
  private readonly nextNonce = new Map<string, number>();
  /** The chain id this network is (`EVM_<NET>_CHAIN_ID`): the node must serve it, wallets must name it. */
  readonly chainId: number;
  /** Set once the node was seen serving `chainId`; a mismatch is asked again next time (the node may be fixed). */
  private nodeVerified = false;

  constructor(options: EvmAdapterOptions) {
    super(options);
    this.chainId = options.settings.chainId ?? DEFAULT_EVM_CHAIN_IDS[options.network];
    this.resendAfterMs = options.resendAfterSeconds * 1000;
    this.client = createPublicClient({ transport: http(options.rpcUrl, { retryCount: 1 }) });
  }

  async send(
    prepared: PreparedCall,
    signer: SignerSecret,
    options: SendOptions = {},
  ): Promise<SentTransaction> {
    const signed = await this.sign(prepared, signer, options);
    try {
      return await this.broadcast(signed);
    } catch (error) {
      // The stuck transaction was mined meanwhile: it stands, nothing to replace.
      if (options.replacing && error instanceof ChainError && error.code === "stale")
        return options.replacing;
      throw error;
    }
  }

  async sign(
    prepared: PreparedCall,
    signer: SignerSecret,
    options: SendOptions = {},
  ): Promise<SignedTransaction> {
    const call = expectCall(prepared, "evm");
    checkWalletNetwork(signer.networkId, this.chainId, this.network);
    const account = privateKeyToAccount(signer.privateKey as Hex);
    // Never signed for a chain the network is not: the signature would be valid on that chain.
    await this.verifyNode(true);
    const chainId = this.chainId;
    const replacing = options.replacing;
    return this.locks.run(account.address.toLowerCase(), async () => {
      const fees = await this.client.estimateFeesPerGas();
      let maxFeePerGas = fees.maxFeePerGas;
      let maxPriorityFeePerGas = fees.maxPriorityFeePerGas;
      let nonce: number;
      if (replacing?.nonce !== undefined) {
        nonce = replacing.nonce;
        maxFeePerGas = max(
          maxFeePerGas,
          (BigInt(replacing.maxFeePerGas ?? 0) * REPLACEMENT_BUMP_PERCENT) / 100n,
        );
        maxPriorityFeePerGas = max(
          maxPriorityFeePerGas,
          (BigInt(replacing.maxPriorityFeePerGas ?? 0) * REPLACEMENT_BUMP_PERCENT) / 100n,
        );
      } else {
        const pending = await this.client.getTransactionCount({
          address: account.address,
          blockTag: "pending",
        });
        nonce = Math.max(pending, this.nextNonce.get(account.address) ?? 0);
        // Reserved now, so a call signed next from this wallet takes the following nonce even
        // before this one reaches the node.
        this.nextNonce.set(account.address, nonce + 1);
      }
      const raw = await account.signTransaction({
        type: "eip1559",
        chainId,
        nonce,
        to: call.to,
        data: call.data,
        value: call.value,
        gas: call.gasLimit,
        maxFeePerGas,
        maxPriorityFeePerGas,
      });
      return {
        chain: "evm",
        network: this.network,
        transactionId: keccak256(raw),
        from: account.address,
        sentAt: this.now().toISOString(),
        nonce,
        maxFeePerGas: maxFeePerGas.toString(),
        maxPriorityFeePerGas: maxPriorityFeePerGas.toString(),
        raw,
      };
    });
  }

  async broadcast(signed: SignedTransaction): Promise<SentTransaction> {
    const hash = signed.transactionId as Hex;
    await this.verifyNode(false);
    try {
      await this.client.sendRawTransaction({ serializedTransaction: signed.raw as Hex });
    } catch (error) {
      const text = errorText(error);
      // These bytes reached the node before (a retry after a crash): the same transaction, once.
      // geth says "already known", anvil "transaction already imported".
      if (/already known|already imported|known transaction/i.test(text)) return asSent(signed, this.now());
      if (/nonce too low/i.test(text)) {
        const receipt = await this.client
          .getTransactionReceipt({ hash })
          .catch(notFound(TransactionReceiptNotFoundError));
        if (receipt) return asSent(signed, this.now());
        this.nextNonce.delete(getAddress(signed.from));
        throw new ChainError("stale", "its nonce went to another transaction: sign the call again", {
          cause: error,
        });
      }
      this.nextNonce.delete(getAddress(signed.from));
      // viem's short message is generic ("Transaction creation failed."): the node's words are in its details.
      const said = error instanceof BaseError && error.details ? error.details : shortMessage(error);
      throw new ChainError(refusalCode(text), `the node refused the transaction: ${said}`, {
        cause: error,
      });
    }
    return asSent(signed, this.now());
  }

  discard(signed: SignedTransaction): void {
    // The next signature asks the node again rather than leave a gap at this nonce.
    this.nextNonce.delete(getAddress(signed.from));
  }

  async status(sent: SentTransaction): Promise<TransactionStatus> {
    const hash = sent.transactionId as Hex;
    await this.verifyNode(false);
    const base = this.statusBase();
    const receipt = await this.client
      .getTransactionReceipt({ hash })
      .catch(notFound(TransactionReceiptNotFoundError));
    if (receipt) {
      const block = await this.client.getBlock({ blockNumber: receipt.blockNumber }).catch(() => null);
      // The receipt's block was replaced (reorg): the transaction is waiting again.
      if (!block || block.hash !== receipt.blockHash) {
        return { ...base, state: "pending", confirmations: 0, stage: "reorged" };
      }
      const latest = await this.client.getBlockNumber({ cacheTime: 0 });
      const confirmations = Number(latest - receipt.blockNumber + 1n);
      const output = {
        block_number: Number(receipt.blockNumber),
        block_hash: receipt.blockHash,
        gas_used: receipt.gasUsed.toString(),
        logs: receipt.logs.length,
      };
      if (receipt.status === "reverted") {
        const reason = await this.revertReason(hash, receipt.blockNumber);
        return {
          ...base,
          state: "failed",
          confirmations,
          output,
          error: { message: "execution reverted", reason },
        };
      }
      const state = confirmations >= base.requiredConfirmations ? "confirmed" : "pending";
      return { ...base, state, confirmations, output, stage: "mined" };
    }
    const stuck = this.now().getTime() - Date.parse(sent.sentAt) > this.resendAfterMs;
    const inPool = await this.client.getTransaction({ hash }).catch(notFound(TransactionNotFoundError));
    if (!inPool && sent.nonce !== undefined) {
      const used = await this.client.getTransactionCount({ address: sent.from as Hex, blockTag: "latest" });
      // Its nonce went to another transaction (its replacement, or a send from elsewhere).
      if (used > sent.nonce) {
        return {
          ...base,
          state: "dropped",
          confirmations: 0,
          error: { message: "nonce used by another transaction" },
        };
      }
    }
    // Neither mined nor in the pool (reorged out, or evicted): this process's nonce count for the
    // wallet is ahead of the chain, so the next send asks the chain again instead of leaving a gap.
    if (!inPool) this.nextNonce.delete(getAddress(sent.from));
    return { ...base, state: "pending", confirmations: 0, stuck, stage: inPool ? "mempool" : "unknown" };
  }

  async balance(account: string): Promise<bigint> {
    try {
      return await this.client.getBalance({ address: account as Hex });
    } catch (error) {
      throw new ChainError("node_unavailable", `the EVM node failed: ${shortMessage(error)}`, {
        cause: error,
      });
    }
  }

  /** The chain id the node at the RPC URL answers (`eth_chainId`). */
  async servedChainId(): Promise<number> {
    try {
      return await this.client.getChainId();
    } catch (error) {
      throw new ChainError("node_unavailable", `the EVM node failed: ${shortMessage(error)}`, {
        cause: error,
      });
    }
  }

  /**
   * Refuses a node that serves another chain. Before signing the refusal is final (`wrong_network`:
   * nothing was signed, the payment's call fails). For a transaction already signed it is not: those
   * bytes may have reached the right chain before the setting changed, and another chain's node
   * would call them dropped, so they are neither sent there nor judged by it (`wrong_node`, retried
   * until the setting is fixed).
   */
  private async verifyNode(beforeSigning: boolean): Promise<void> {
    if (this.nodeVerified) return;
    const served = await this.servedChainId();
    if (served === this.chainId) {
      this.nodeVerified = true;
      return;
    }
    const message = wrongChainMessage(this.network, this.chainId, served);
    if (beforeSigning) {
      throw new ChainError("wrong_network", `${message}: nothing was signed`, {
        reason: "rpc_chain_id_mismatch",
      });
    }
    throw new ChainError("wrong_node", `${message}: waiting for ${rpcUrlSetting(this.network)} to be fixed`);
  }

  /** Receipts carry no reason: replay the call on the parent block's state to read it. */
  private async revertReason(hash: Hex, blockNumber: bigint): Promise<string | undefined> {
    const tx = await this.client.getTransaction({ hash });
    try {
      await this.client.call({
        account: tx.from,
        to: tx.to,
        data: tx.input,
        value: tx.value,
        gas: tx.gas,
        blockNumber: blockNumber - 1n,
      });
      return undefined;
    } catch (error) {
      return decodeRevert(error);
    }
  }
}

function decodeRevert(error: unknown): string {
  let data: Hex | undefined;
  if (error instanceof BaseError) {
    error.walk((e) => {
      const candidate = (e as { data?: unknown }).data;
      if (typeof candidate === "string" && candidate.startsWith("0x")) data = candidate as Hex;
      return false;
    });
  }
  if (data && data.length > 2) {
    try {
      const decoded = decodeErrorResult({ data });
      return decoded.errorName === "Error"
        ? String(decoded.args?.[0])
        : `${decoded.errorName}(${decoded.args})`;
    } catch {
      return data;
    }
  }
  return shortMessage(error);
}

function notFound(kind: new (...args: never[]) => Error) {
  return (error: unknown) => {
    if (error instanceof kind) return null;
    throw new ChainError("node_unavailable", `the EVM node failed: ${shortMessage(error)}`, { cause: error });
  };
}

function shortMessage(error: unknown): string {
  return error instanceof BaseError
    ? error.shortMessage
    : error instanceof Error
      ? error.message
      : String(error);
}

function errorText(error: unknown): string {
  return error instanceof BaseError ? `${error.shortMessage} ${error.details}` : String(error);
}

function max(a: bigint, b: bigint): bigint {
  return a > b ? a : b;
}
