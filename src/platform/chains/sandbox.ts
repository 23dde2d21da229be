import { createHash } from "node:crypto";
import type { ChainNetworkSettings } from "../../config.ts";
import {
  asSent,
  type Chain,
  type ChainAdapter,
  ChainError,
  type Network,
  type PreparedCall,
  renderExplorerUrl,
  type SentTransaction,
  type SignedTransaction,
  type SignerSecret,
  type TransactionStatus,
} from "./adapter.ts";
import { checkWalletNetwork } from "./evm-networks.ts";

/**
 * How a sandbox transaction ends. Chosen per call, in this order:
 * 1. `SandboxLedger.nextOutcome(o)` (a per-test override, used by the next send only);
 * 2. a marker in the call's payload — the ASCII text `sandbox:revert`, `sandbox:drop`,
 *    `sandbox:slow` or `sandbox:unfunded` anywhere in the EVM calldata, NEAR method name or JSON
 *    args, WAX action name or data, or Solana instruction data (so a trigger parameter with that
 *    value selects it);
 * 3. otherwise `success`.
 * `unfunded` is refused at broadcast as a node refuses a wallet that cannot pay the fee, and so is
 * any send from an account whose sandbox balance is below the fee (`setBalance`).
 */
const SANDBOX_OUTCOMES = Object.freeze(["success", "revert", "drop", "slow", "unfunded"] as const);
export type SandboxOutcome = (typeof SANDBOX_OUTCOMES)[number];

/** `slow` confirms this many times slower than the network's block time. */
const SLOW_FACTOR = 10;

/**
 * What each marker does to the transaction that carries it, for the API's sandbox guide; typed by
 * the outcomes, so a new outcome must be described here.
 */
export const SANDBOX_MARKERS: Readonly<Record<Exclude<SandboxOutcome, "success">, string>> = Object.freeze({
  revert: "The call reverts after one block (reason `sandbox:revert requested by the call`)",
  drop: "The transaction is dropped after one block and never lands; every re-sending of it too",
  slow: `The transaction confirms ${SLOW_FACTOR} times slower than the network's block time`,
  unfunded:
    "The node refuses the send as it refuses a wallet that cannot pay for gas (`insufficient_funds`); nothing reaches the chain",
});

/**
 * Every sandbox account starts with 100 of its chain's native unit (in the smallest unit), and each
 * transaction broadcast costs it a fee, so balances move as on a live chain.
 */
const SANDBOX_DECIMALS: Record<Chain, bigint> = { evm: 18n, solana: 9n, near: 24n, wax: 8n };
export const SANDBOX_START_BALANCE = (chain: Chain) => 100n * 10n ** SANDBOX_DECIMALS[chain];
/** What one sandbox transaction costs its sender: a thousandth of the native unit. */
export const SANDBOX_FEE = (chain: Chain) => 10n ** (SANDBOX_DECIMALS[chain] - 3n);

interface SandboxRecord {
  sent: SentTransaction;
  outcome: SandboxOutcome;
  broadcasts: number;
}

/** The state of every sandbox chain of one process: deterministic ids and a clock passed in. */
export class SandboxLedger {
  readonly now: () => Date;
  private sequence = 0;
  private override: SandboxOutcome | undefined;
  private readonly records = new Map<string, SandboxRecord>();
  private readonly balances = new Map<string, bigint>();

  constructor(now: () => Date = () => new Date()) {
    this.now = now;
  }

  nextOutcome(outcome: SandboxOutcome): void {
    this.override = outcome;
  }

  /** The account's native balance on the sandbox chain (smallest unit). */
  balanceOf(chain: Chain, account: string): bigint {
    return this.balances.get(`${chain}:${account}`) ?? SANDBOX_START_BALANCE(chain);
  }

  /** The sandbox faucet: sets the account's balance (0 makes it an unfunded wallet). */
  setBalance(chain: Chain, account: string, amount: bigint): void {
    this.balances.set(`${chain}:${account}`, amount);
  }

  /** Signs: the outcome is chosen and the id fixed, but nothing is on the chain until broadcast. */
  sign(chain: Chain, network: Network, call: PreparedCall, signer: SignerSecret): SignedTransaction {
    if (!signer.privateKey) throw new ChainError("missing_key", "the wallet has no key to sign with");
    const payload = payloadText(call);
    const outcome =
      this.override ?? SANDBOX_OUTCOMES.find((o) => payload.includes(`sandbox:${o}`)) ?? "success";
    this.override = undefined;
    this.sequence += 1;
    const sentAt = this.now().toISOString();
    // The time is part of the id so a restarted process (sequence back at 1) makes new ids.
    const digest = createHash("sha256")
      .update(`${chain}:${network}:${sentAt}:${this.sequence}:${payload}`)
      .digest();
    const transactionId = formatId(chain, digest);
    return {
      chain,
      network,
      transactionId,
      // The key itself never leaves; a stable digest stands for the account.
      from: signer.accountId ?? sandboxAccount(chain, signer.privateKey),
      sentAt,
      sandboxOutcome: outcome,
      raw: Buffer.from(`sandbox:${transactionId}`).toString("base64"),
    };
  }

  /**
   * Puts signed bytes on the sandbox chain. The same bytes again are the same transaction (its
   * count of broadcasts grows, nothing else), as a node's duplicate check would have it; a process
   * that did not sign them (a restarted worker) takes the outcome they carry.
   */
  broadcast(signed: SignedTransaction): SentTransaction {
    const known = this.records.get(signed.transactionId);
    if (known) {
      known.broadcasts += 1;
      return known.sent;
    }
    const outcome = SANDBOX_OUTCOMES.find((o) => o === signed.sandboxOutcome) ?? "success";
    const balance = this.balanceOf(signed.chain, signed.from);
    if (outcome === "unfunded" || balance < SANDBOX_FEE(signed.chain)) {
      // As a node refuses it: nothing is on the chain, and asking again changes nothing.
      throw new ChainError(
        "insufficient_funds",
        `the node refused the transaction: insufficient funds for gas: ${signed.from} cannot pay the fee${outcome === "unfunded" ? " (sandbox:unfunded)" : ""}`,
      );
    }
    this.balances.set(`${signed.chain}:${signed.from}`, balance - SANDBOX_FEE(signed.chain));
    const sent = asSent(signed, this.now());
    this.records.set(sent.transactionId, { sent, outcome, broadcasts: 1 });
    return sent;
  }

  /** How many times these bytes were broadcast in this process (a test's measure of "sent once"). */
  broadcasts(transactionId: string): number {
    return this.records.get(transactionId)?.broadcasts ?? 0;
  }

  find(transactionId: string): SandboxRecord | undefined {
    return this.records.get(transactionId);
  }
}

export class SandboxChainAdapter implements ChainAdapter {
  readonly chain: Chain;
  readonly network: Network;
  private readonly settings: ChainNetworkSettings;
  private readonly ledger: SandboxLedger;

  constructor(chain: Chain, network: Network, settings: ChainNetworkSettings, ledger: SandboxLedger) {
    this.chain = chain;
    this.network = network;
    this.settings = settings;
    this.ledger = ledger;
  }

  async send(call: PreparedCall, signer: SignerSecret): Promise<SentTransaction> {
    return this.broadcast(await this.sign(call, signer));
  }

  async sign(call: PreparedCall, signer: SignerSecret): Promise<SignedTransaction> {
    if (call.chain !== this.chain) {
      throw new ChainError("wrong_chain", `a ${call.chain} call sent to the ${this.chain} adapter`);
    }
    // The same refusal as a real node's network: a sandbox payment fails as the live one would.
    if (this.settings.chainId !== undefined)
      checkWalletNetwork(signer.networkId, this.settings.chainId, this.network);
    return this.ledger.sign(this.chain, this.network, call, signer);
  }

  async broadcast(signed: SignedTransaction): Promise<SentTransaction> {
    return this.ledger.broadcast(signed);
  }

  discard(): void {
    // Sandbox signatures reserve nothing.
  }

  async balance(account: string): Promise<bigint> {
    return this.ledger.balanceOf(this.chain, account);
  }

  async status(sent: SentTransaction): Promise<TransactionStatus> {
    const required = this.settings.requiredConfirmations;
    // Followed from the stored record when this process did not send it (a worker, a restart).
    const known = this.ledger.find(sent.transactionId);
    const stored = SANDBOX_OUTCOMES.find((o) => o === sent.sandboxOutcome);
    const record = known ?? (stored ? { sent, outcome: stored, broadcasts: 1 } : undefined);
    const base = { requiredConfirmations: required, averageSeconds: this.settings.blockSeconds };
    if (!record)
      return { ...base, state: "dropped", confirmations: 0, error: { message: "unknown transaction" } };
    const blockSeconds = this.settings.blockSeconds * (record.outcome === "slow" ? SLOW_FACTOR : 1);
    const elapsed = (this.ledger.now().getTime() - Date.parse(record.sent.sentAt)) / 1000;
    const blocks = Math.max(0, Math.floor(elapsed / blockSeconds));
    const average = { ...base, averageSeconds: blockSeconds };
    if (blocks === 0) return { ...average, state: "pending", confirmations: 0 };
    switch (record.outcome) {
      case "revert":
        return {
          ...average,
          state: "failed",
          confirmations: blocks,
          error: { message: "execution reverted", reason: "sandbox:revert requested by the call" },
        };
      case "drop":
        return {
          ...average,
          state: "dropped",
          confirmations: 0,
          error: { message: "dropped from the mempool" },
        };
      default: {
        const confirmations = Math.min(blocks, required);
        return {
          ...average,
          state: confirmations >= required ? "confirmed" : "pending",
          confirmations,
          output: { sandbox: true },
        };
      }
    }
  }

  explorerUrl(transactionId: string): string | null {
    return renderExplorerUrl(this.settings.explorerUrl, transactionId);
  }
}

function sandboxAccount(chain: Chain, privateKey: string): string {
  const id = formatId(chain, createHash("sha256").update(privateKey).digest());
  return chain === "evm" ? id.slice(0, 42) : id;
}

function payloadText(call: PreparedCall): string {
  switch (call.chain) {
    case "evm":
      return Buffer.from(call.data.slice(2), "hex").toString("latin1");
    case "near":
      return `${call.methodName} ${JSON.stringify(call.args)}`;
    case "wax":
      return `${call.name} ${Buffer.from(call.data, "hex").toString("latin1")}`;
    case "solana":
      return [call, ...(call.extraInstructions ?? [])]
        .map((ix) => Buffer.from(ix.data).toString("latin1"))
        .join(" ");
  }
}

const BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

function base58(bytes: Uint8Array): string {
  let n = BigInt(`0x${Buffer.from(bytes).toString("hex") || "0"}`);
  let out = "";
  while (n > 0n) {
    out = BASE58[Number(n % 58n)] + out;
    n /= 58n;
  }
  for (const b of bytes) {
    if (b !== 0) break;
    out = `1${out}`;
  }
  return out;
}

/** Ids shaped like the real chain's, so links and validations behave the same. */
function formatId(chain: Chain, digest: Buffer): string {
  switch (chain) {
    case "evm":
      return `0x${digest.toString("hex")}`;
    case "solana":
      return base58(Buffer.concat([digest, createHash("sha256").update(digest).digest()]));
    case "near":
      return base58(digest);
    case "wax":
      return digest.toString("hex");
  }
}
