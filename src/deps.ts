import type { Logger } from "pino";
import type { Config } from "./config.ts";
import type { Revocations } from "./platform/auth/revocations.ts";
import type { ChainRegistry } from "./platform/chains/registry.ts";
import type { Custody } from "./platform/crypto/custody.ts";
import type { Database, DatabaseHandle, Executor, Tx } from "./platform/db/index.ts";
import type { RateLimiter } from "./platform/http/rate-limit.ts";
import type { Faults } from "./platform/jobs/faults.ts";
import type { Jobs } from "./platform/jobs/index.ts";
import type { Mailer } from "./platform/mail/index.ts";
import type { RatesProvider } from "./platform/money/rates.ts";
import type { KycProvider } from "./platform/providers/kyc/types.ts";
import type { PaymentProviders } from "./platform/providers/payments/registry.ts";

/**
 * What still refers to a record, asked by the record's own module before it is deleted or its
 * money changed, and answered by the module whose table refers to it: given here so that a module
 * never imports those built on it (wallets do not import triggers, triggers not prices, prices
 * neither auctions nor payments).
 */
export interface Referrers {
  /** How many triggers call through the wallet. */
  triggersOfWallet(db: Executor, walletId: string): Promise<number>;
  /** How many prices run the trigger's call. */
  pricesOfTrigger(db: Executor, triggerId: string): Promise<number>;
  /** The auction whose bid or end price this is, if any. */
  auctionOfPrice(db: Executor, priceId: string): Promise<{ id: string } | undefined>;
  /** Whether any payment refers to the price (a price with payments is expired, not deleted). */
  priceHasPayments(db: Executor, priceId: string): Promise<boolean>;
}

/** A payment as reconciliation sees it (docs/ledger.md, "Reconciliation"): minor units of `currency`. */
export interface PaymentFact {
  id: string;
  status: string;
  providerId: string;
  intentId: string | null;
  captured: bigint;
  refunded: bigint;
  total: bigint;
  currency: string;
  triggerId: string | null;
  transactionId: string | null;
  /** A contract call was signed or sent for it. */
  sent: boolean;
  /** The chain confirmed the call. */
  confirmed: boolean;
  /** The chain refused or dropped the call, as the payment recorded (its error's `step` is `chain`). */
  chainFailed: boolean;
}

/** What services are given: every outside system passed in, none reached for as a global. */
export interface Deps {
  config: Config;
  logger: Logger;
  database: DatabaseHandle;
  db: Database;
  /**
   * For reads that tolerate lag (lists, public pages): a streaming replica when
   * DATABASE_REPLICA_URL is set, else `db`. Never for a read that must see the caller's own write.
   */
  lagging: Database;
  jobs: Jobs;
  mailer: Mailer;
  /** Seals and opens wallet secrets under the master keys. */
  custody: Custody;
  /** Publishes credential revocations to every process's credential cache. */
  revocations: Revocations;
  paymentProviders: PaymentProviders;
  /** Seller onboarding (sandbox or Stripe Connect), chosen by KYC_PROVIDER. */
  kycProvider: KycProvider;
  /** The connected payout account of a seller KYC record: null before it has one, undefined with no record. */
  sellerAccounts: (kycId: string) => Promise<string | null | undefined>;
  /** Injectable clock, so expiry can be tested without waiting. */
  now: () => Date;
  /** Exchange rates for prices charged in another currency (a static table by default). */
  rates: RatesProvider;
  /**
   * Called inside the transaction that moves a `defer_execution` payment to any status (auction
   * bids wait for their hold, and a winner's failed payment hands the sale over): the auctions
   * module's hook, given here so that payments never import auctions.
   */
  onDeferredPayment: (tx: Tx, payment: { id: string; status: string }) => Promise<void>;
  /**
   * The payments module's answers to the modules payments is built on, given here so that none of
   * them imports payments (payments imports them): an app's money in flight, counted per kind
   * inside the caller's transaction, with a sentence naming what is open (undefined when nothing
   * is: the app may be deleted) ...
   */
  moneyInFlight: (tx: Tx, appId: string) => Promise<{ counts: Record<string, number>; described?: string }>;
  /** ... the same for the open payments whose seller share goes to one seller KYC record ... */
  sellerMoneyInFlight: (
    tx: Tx,
    kycId: string,
  ) => Promise<{ counts: Record<string, number>; described?: string }>;
  /** ... and a seller whose payouts are back: their payments' failed transfers go again, in `tx`. */
  onSellerPayable: (tx: Tx, kycId: string) => Promise<void>;
  /** A page of an app's payments by id, for reconciliation: the payments module's answer. */
  paymentFacts: (
    db: Executor,
    appId: string,
    afterId: string | null,
    limit: number,
  ) => Promise<PaymentFact[]>;
  /** What still refers to a wallet, a trigger or a price (`Referrers`). */
  referrers: Referrers;
  /** Chain adapters per chain and network (sandbox by default; CHAINS=real for nodes). */
  chains: ChainRegistry;
  /** The one rate limiter, counted in the database so every process shares the allowance. */
  rateLimiter: RateLimiter;
  /** Crash-test points (FAULT_CRASH_AT); nothing in a real deployment. */
  faults: Faults;
}
