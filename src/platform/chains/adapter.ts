/**
 * The one interface every chain sits behind. Payments prepare a call (the trigger's call data
 * rendered for one chain), send it from the app's wallet and poll its status until it settles.
 * Everything here is plain data so a sent transaction can be stored and followed by any process.
 */

import type { ChainNetworkSettings } from "../../config.ts";

/** The four chains a wallet, trigger or price can be on, in the interface's order. */
export const CHAINS = Object.freeze(["near", "evm", "wax", "solana"] as const);
export type Chain = (typeof CHAINS)[number];

export const NETWORKS = Object.freeze(["mainnet", "testnet"] as const);
export type Network = (typeof NETWORKS)[number];

/** What an adapter that talks to a node is built with; each adds its own tuning. */
export interface RpcAdapterOptions {
  network: Network;
  rpcUrl: string;
  settings: ChainNetworkSettings;
  now?: () => Date;
}

/** A contract call on an EVM chain: calldata already ABI-encoded. */
export interface EvmCall {
  chain: "evm";
  to: `0x${string}`;
  data: `0x${string}`;
  /** Wei sent with the call. */
  value: bigint;
  gasLimit: bigint;
}

/** A NEAR function call. */
export interface NearCall {
  chain: "near";
  receiverId: string;
  methodName: string;
  /** JSON arguments, serialized as the contract's JSON ABI expects. */
  args: unknown;
  /** Gas units (1 TGas = 10^12). */
  gas: bigint;
  /** Attached deposit in yoctoNEAR. */
  deposit: bigint;
}

/** An Antelope (WAX) action, its data already serialized with the contract's ABI. */
export interface WaxCall {
  chain: "wax";
  account: string;
  name: string;
  authorization: { actor: string; permission: string }[];
  /** Hex of the ABI-serialized action data. */
  data: string;
}

export interface SolanaAccountMeta {
  address: string;
  signer: boolean;
  writable: boolean;
}

export interface SolanaInstruction {
  programId: string;
  accounts: SolanaAccountMeta[];
  data: Uint8Array;
}

/**
 * A Solana instruction (the trigger's call); the fee payer (the wallet) signs. Multi-instruction
 * transactions (creating a tree or a collection) add `extraInstructions` and the secret keys of new
 * accounts that must sign (`extraSigners`, same format as the wallet's key).
 */
export interface SolanaCall extends SolanaInstruction {
  chain: "solana";
  /** Compute-unit limit; omitted means the runtime default. */
  computeUnits?: number;
  extraInstructions?: SolanaInstruction[];
  extraSigners?: string[];
}

export type PreparedCall = EvmCall | NearCall | WaxCall | SolanaCall;

/**
 * The wallet's key material, decrypted only for the duration of a send. `privateKey` formats:
 * EVM 0x-hex; Solana base58 of the 64-byte secret key; NEAR `ed25519:…`; WAX `PVT_K1_…` or WIF.
 */
export interface SignerSecret {
  privateKey: string;
  /** NEAR and WAX account name; derived from the key on EVM and Solana. */
  accountId?: string;
  /** WAX permission, `active` when omitted. */
  permission?: string;
  /**
   * The wallet's `network_id`. EVM refuses to sign when it is not the network's chain id (a key
   * signs for any chain, so this is the only place a wallet made for one chain is told apart).
   */
  networkId?: string;
}

/**
 * What `send` answers and what the caller stores: enough to follow the transaction later from any
 * process (and to replace it on EVM).
 */
export interface SentTransaction {
  chain: Chain;
  network: Network;
  transactionId: string;
  /** The sending account. */
  from: string;
  /** ISO time of submission, for the resend deadline. */
  sentAt: string;
  /** EVM only: the nonce and the fee caps, so a replacement can reuse the nonce and outbid the fee. */
  nonce?: number;
  maxFeePerGas?: string;
  maxPriorityFeePerGas?: string;
  /** NEAR: the access key that signed, whose nonce the transaction used. */
  publicKey?: string;
  /** Solana: the blockhash the transaction lives by, to tell a dropped transaction from a late one. */
  blockhash?: string;
  lastValidBlockHeight?: string;
  /** Sandbox only: the chosen outcome, so any process (or a restarted one) can follow it. */
  sandboxOutcome?: string;
  /** WAX: the block the node included the transaction in, and when the transaction expires. */
  blockNumber?: number;
  expiresAt?: string;
  /** WAX: the head block when signed, to tell from the node's status tracking that it never landed. */
  signedAtBlock?: number;
}

/**
 * A call signed for the chain and not yet known to be broadcast. The caller stores it before
 * broadcasting, so a process that dies between the broadcast and its record broadcasts these same
 * bytes again on retry — the chain sees one transaction — instead of signing a second one. `raw` is
 * not a secret: it can only do what it says, and it is public once broadcast.
 */
export interface SignedTransaction extends SentTransaction {
  /** The signed transaction as the node takes it (EVM 0x-hex, Solana base64 wire, NEAR base64 borsh, WAX hex). */
  raw: string;
}

export type TransactionState = "pending" | "confirmed" | "failed" | "dropped";

export interface TransactionError {
  message: string;
  /** Revert reason (EVM), failing receipt's error (NEAR), assertion (WAX). */
  reason?: string;
  /** Program logs (Solana) or receipt logs (NEAR). */
  logs?: string[];
}

export interface TransactionStatus {
  state: TransactionState;
  confirmations: number;
  requiredConfirmations: number;
  /** Average seconds per confirmation, for the `confirmation_status` estimate. */
  averageSeconds: number;
  /** True when still pending past the resend deadline (EVM: call `send` again with `replacing`). */
  stuck?: boolean;
  /** Chain-specific finality step reached, e.g. Solana `processed|confirmed|finalized`. */
  stage?: string;
  error?: TransactionError;
  output?: Record<string, unknown>;
}

export interface SendOptions {
  /** EVM: resend this stuck transaction with the same nonce and a higher fee. */
  replacing?: SentTransaction;
}

export interface ChainAdapter {
  readonly chain: Chain;
  readonly network: Network;
  /** Signs the call (reserving its nonce where the chain has one) without sending anything. */
  sign(call: PreparedCall, signer: SignerSecret, options?: SendOptions): Promise<SignedTransaction>;
  /**
   * Hands signed bytes to the network. Safe to repeat with the same bytes (a retry after a crash): a
   * transaction the node already has or already included is answered as sent, never made twice.
   * Throws ChainError `stale` when these bytes can never land (their nonce went to another
   * transaction, their blockhash or expiry passed) and were not included: sign again.
   */
  broadcast(signed: SignedTransaction): Promise<SentTransaction>;
  /** Gives back what `sign` reserved (a nonce) for a signed transaction that will not be broadcast. */
  discard(signed: SignedTransaction): void;
  /** Sign and broadcast in one step, for callers that record nothing in between. */
  send(call: PreparedCall, signer: SignerSecret, options?: SendOptions): Promise<SentTransaction>;
  status(sent: SentTransaction): Promise<TransactionStatus>;
  /**
   * The native balance of an account (its address or account name) in the chain's smallest unit
   * (wei, lamports, yoctoNEAR, 10^-8 WAX): what the wallet has left to pay fees with.
   */
  balance(account: string): Promise<bigint>;
  /** Link to the transaction in the network's explorer; null when the chain has none (a local chain). */
  explorerUrl(transactionId: string): string | null;
}

/**
 * Refusals a node answers the same way however often it is asked, until someone fixes the cause
 * (funds the wallet, deploys the contract, fixes the fee settings): retrying them only delays the
 * end. `insufficient_funds`: the wallet cannot pay the fee (or the value); `contract_not_found`:
 * nothing to call at the address; `invalid_transaction`: fee, gas or signature rules the node
 * always refuses. Everything else a send throws (`send_failed`, `node_unavailable`,
 * `rate_limited`, `nonce_race`, timeouts) is transient and retried with back-off.
 */
export const PERMANENT_CHAIN_ERRORS: ReadonlySet<string> = new Set([
  "insufficient_funds",
  "contract_not_found",
  "invalid_transaction",
]);

export function isPermanentChainError(code: string): boolean {
  return PERMANENT_CHAIN_ERRORS.has(code);
}

/**
 * Sorts a node's refusal by its text (each chain words them its own way): a permanent code from
 * PERMANENT_CHAIN_ERRORS, `rate_limited` / `nonce_race` for the transient ones we can name, else
 * `fallback`.
 */
export function refusalCode(text: string, fallback = "send_failed"): string {
  const rules: [RegExp, string][] = [
    // EVM "insufficient funds for gas * price + value"; Solana "insufficient funds for fee",
    // "Attempt to debit an account but found no record of a prior credit"; NEAR NotEnoughBalance,
    // LackBalanceForState; WAX "overdrawn balance", CPU/NET/RAM the account has not staked for.
    [
      /insufficient funds|insufficient lamports|no record of a prior credit|NotEnoughBalance|LackBalanceForState|overdrawn balance|tx_cpu_usage_exceeded|tx_net_usage_exceeded|ram_usage_exceeded|billed CPU time/i,
      "insufficient_funds",
    ],
    [/rate limit|too many requests|\b429\b/i, "rate_limited"],
    [/nonce too high|replacement transaction underpriced|InvalidNonce|nonce.*(?:race|gap)/i, "nonce_race"],
    [
      /intrinsic gas too low|exceeds block gas limit|gas limit reached|invalid sender|invalid chain id|transaction type not supported|fee cap less than|tip higher than|max priority fee per gas higher/i,
      "invalid_transaction",
    ],
    [
      /contract.*not (?:found|deployed)|no contract code|AccountDoesNotExist|ProgramAccountNotFound|unknown_contract|account .* does not exist/i,
      "contract_not_found",
    ],
  ];
  return rules.find(([pattern]) => pattern.test(text))?.[1] ?? fallback;
}

/** Failures of the chain layer itself (bad call for this adapter, node unreachable, rejected send). */
export class ChainError extends Error {
  /**
   * `rejected`: the chain refused the call itself (a WAX assertion): the call failed, do not
   * retry. `stale`: a signed transaction that can no longer land: sign the call again. Any other code (`node_unavailable`, `send_failed`, …) may succeed on a later attempt;
   * `bad_key`, `missing_key`, `missing_account`, `wrong_chain`, `invalid_call` need the wallet or
   * trigger fixed; `wrong_network` (EVM: the wallet or the RPC endpoint is for another chain id)
   * needs the wallet or the settings fixed, and nothing was signed. The codes of
   * PERMANENT_CHAIN_ERRORS are refusals a node repeats until their cause is fixed.
   */
  readonly code: string;
  readonly reason: string | undefined;
  constructor(code: string, message: string, options?: { cause?: unknown; reason?: string }) {
    super(message, { cause: options?.cause });
    this.code = code;
    this.reason = options?.reason;
  }
}

export function expectCall<C extends PreparedCall["chain"]>(
  call: PreparedCall,
  chain: C,
): Extract<PreparedCall, { chain: C }> {
  if (call.chain !== chain)
    throw new ChainError("wrong_chain", `a ${call.chain} call sent to the ${chain} adapter`);
  return call as Extract<PreparedCall, { chain: C }>;
}

export function renderExplorerUrl(template: string | null, transactionId: string): string | null {
  return template === null ? null : template.replaceAll("{tx}", encodeURIComponent(transactionId));
}

/** A stored transaction: the signed bytes still to broadcast (`raw` present) or the sent record. */
export type StoredTransaction = SentTransaction | SignedTransaction;

/** True while the stored transaction is signed bytes not yet known to be broadcast. */
export function isSigned(stored: StoredTransaction): stored is SignedTransaction {
  return typeof (stored as Partial<SignedTransaction>).raw === "string";
}

/** What `broadcast` answers: the stored record without the signed bytes, stamped with the send time. */
export function asSent(signed: SignedTransaction, sentAt: Date): SentTransaction {
  const { raw: _raw, ...sent } = signed;
  return { ...sent, sentAt: sentAt.toISOString() };
}
