import type { ChainNetworkSettings } from "../../config.ts";
import {
  type Chain,
  type ChainAdapter,
  type Network,
  type PreparedCall,
  type RpcAdapterOptions,
  renderExplorerUrl,
  type SentTransaction,
  type SignedTransaction,
  type SignerSecret,
  type TransactionStatus,
} from "./adapter.ts";

/**
 * What the adapters that talk to a node (EVM, NEAR, WAX, Solana) share: the network, its settings
 * and the clock they are built with, `send` as a signature then its broadcast, the explorer link,
 * and what every status answer takes from the settings. Each adds its client and how it signs,
 * broadcasts and reads a transaction. The sandbox adapter has no node and is not one of them.
 */
export abstract class NodeAdapter implements ChainAdapter {
  abstract readonly chain: Chain;
  readonly network: Network;
  protected readonly settings: ChainNetworkSettings;
  protected readonly now: () => Date;

  constructor(options: RpcAdapterOptions) {
    this.network = options.network;
    this.settings = options.settings;
    this.now = options.now ?? (() => new Date());
  }

  abstract sign(call: PreparedCall, signer: SignerSecret): Promise<SignedTransaction>;
  abstract broadcast(signed: SignedTransaction): Promise<SentTransaction>;
  abstract discard(signed: SignedTransaction): void;
  abstract status(sent: SentTransaction): Promise<TransactionStatus>;
  abstract balance(account: string): Promise<bigint>;

  async send(call: PreparedCall, signer: SignerSecret): Promise<SentTransaction> {
    return this.broadcast(await this.sign(call, signer));
  }

  explorerUrl(transactionId: string): string | null {
    return renderExplorerUrl(this.settings.explorerUrl, transactionId);
  }

  /** What every status answer takes from the settings: confirmations that make it final, block time. */
  protected statusBase(): Pick<TransactionStatus, "requiredConfirmations" | "averageSeconds"> {
    return {
      requiredConfirmations: this.settings.requiredConfirmations,
      averageSeconds: this.settings.blockSeconds,
    };
  }
}
