// The Stripe stand-in's Connect transfers (test/helpers/stripe-stand-in.ts routes requests to
// them): a transfer only to a connected account a test registered with its `transfers` capability
// active, only from a real charge and never beyond it, and reversals never beyond what is left,
// refused with the 400s Stripe answers.
import { type Intent, metadata } from "./stripe-stand-in-payments.ts";

export interface Transfer {
  id: string;
  object: "transfer";
  amount: number;
  amount_reversed: number;
  currency: string;
  destination: string;
  source_transaction: string | null;
  transfer_group: string | null;
  metadata: Record<string, string>;
  reversed: boolean;
}

/** What the transfer handlers read and change of the stand-in (its public state). */
export interface TransfersState {
  readonly intents: Map<string, Intent>;
  readonly connectedAccounts: Map<string, "active" | "inactive" | "pending">;
  readonly transfers: Map<string, Transfer>;
}

/** The handlers of `POST /v1/transfers` and `POST /v1/transfers/{id}/reversals`. */
export class TransfersApi {
  private readonly stand: TransfersState;
  /** The stand-in's maker of ids (`tr_standin7`), one counter with its request ids. */
  private readonly id: (prefix: string) => string;

  constructor(stand: TransfersState, id: (prefix: string) => string) {
    this.stand = stand;
    this.id = id;
  }

  /** `POST /v1/transfers`, as Stripe checks it: a known destination able to receive, a real charge. */
  create(form: URLSearchParams): [number, unknown] {
    const refuse = (code: string, param: string, message: string): [number, unknown] => [
      400,
      { error: { type: "invalid_request_error", code, param, message } },
    ];
    const destination = form.get("destination") ?? "";
    const capability = this.stand.connectedAccounts.get(destination);
    if (!capability)
      return refuse("resource_missing", "destination", `No such destination: '${destination}'`);
    if (capability !== "active") {
      return refuse(
        "insufficient_capabilities_for_transfer",
        "destination",
        "Your destination account needs to have at least one of the following capabilities enabled: transfers, crypto_transfers, legacy_payments",
      );
    }
    const amount = Number(form.get("amount"));
    const source = form.get("source_transaction");
    if (source) {
      const charged = [...this.stand.intents.values()].find((i) => i.latest_charge === source);
      if (charged?.status !== "succeeded") {
        return refuse("resource_missing", "source_transaction", `No such charge: '${source}'`);
      }
      const sent = [...this.stand.transfers.values()]
        .filter((t) => t.source_transaction === source)
        .reduce((sum, t) => sum + t.amount, 0);
      if (sent + amount > charged.amount_received) {
        return refuse("balance_insufficient", "amount", "The transfer exceeds the source transaction");
      }
    }
    const transfer: Transfer = {
      id: this.id("tr"),
      object: "transfer",
      amount,
      amount_reversed: 0,
      currency: form.get("currency") ?? "",
      destination,
      source_transaction: source,
      transfer_group: form.get("transfer_group"),
      metadata: metadata(form),
      reversed: false,
    };
    this.stand.transfers.set(transfer.id, transfer);
    return [200, transfer];
  }

  /** `POST /v1/transfers/{id}/reversals`: all that is left by default, never more. */
  reverse(transfer: Transfer, form: URLSearchParams): [number, unknown] {
    const left = transfer.amount - transfer.amount_reversed;
    const amount = form.has("amount") ? Number(form.get("amount")) : left;
    if (left <= 0 || amount <= 0 || amount > left) {
      return [
        400,
        {
          error: {
            type: "invalid_request_error",
            param: "amount",
            message: `You cannot reverse ${amount}: only ${left} of the transfer is left`,
          },
        },
      ];
    }
    transfer.amount_reversed += amount;
    transfer.reversed = transfer.amount_reversed === transfer.amount;
    const reversal = {
      id: this.id("trr"),
      object: "transfer_reversal",
      amount,
      currency: transfer.currency,
      transfer: transfer.id,
      metadata: metadata(form),
    };
    return [200, reversal];
  }
}
