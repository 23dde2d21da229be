import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { checkInvariants, type FinalState } from "./invariants.ts";
import { generateScenario } from "./scenario.ts";
import type { World } from "./world.ts";

// The simulation's checks can fail: each invariant is shown a state that breaks it (as the API
// would answer it), and a sound state passes. And a scenario is a function of its seed alone.

const confirmed = { confirmed: true, confirmations: 2 };
const unconfirmed = { confirmed: false, confirmations: 0 };

const payment = (id: string, fields: Record<string, unknown> = {}) => ({
  id,
  status: "paid",
  payment_provider: "card",
  final_amount: 15.75,
  amount_refunded: 0,
  transaction_id: `0x${id}`,
  confirmation_status: confirmed,
  transaction_response: { error: null },
  ...fields,
});

const delivery = (eventId: string, type: string) => ({
  id: `whd_${eventId}`,
  status: "succeeded",
  attempt_count: 1,
  event: { id: eventId, type },
});

/** A world whose receiver got these events, and who made `paymentIds` with `marker`. */
function worldWith(
  received: { id: string; type: string; data: unknown }[],
  paymentIds: string[],
  marker = "success",
  seller = false,
) {
  return {
    payments: paymentIds.map((id) => ({ id, marker, seller })),
    bids: [],
    receiver: {
      received: received.map((e) => ({ headers: { "webhook-id": e.id }, body: JSON.stringify(e) })),
    },
  } as unknown as World;
}

/** One paid, delivered payment with its events, webhooks and books: sound. */
function soundRun() {
  const paid = payment("p1");
  const events = [{ to_status: "pending" }, { to_status: "hold" }, { to_status: "paid" }];
  const hooks = events.map((e, i) => ({
    id: `evt_${i}`,
    type: `payment.${e.to_status}`,
    data: { id: "p1" },
  }));
  const state: FinalState = {
    payments: [paid],
    events: new Map([["p1", events]]),
    auctions: [],
    deliveries: hooks.map((h) => delivery(h.id, h.type)),
    balances: [
      {
        currency: "usd",
        available: "15",
        pending: "0",
        owed_to_sellers: "0",
        paid_to_sellers: "0",
        platform_fees: "0.29",
        provider_fees: "0.46",
        refunds_in_flight: "0",
        refunded: "0",
      },
    ],
    sellerPayouts: [],
    reconciliation: { id: "rec_1", status: "clean", mismatches: [] },
  };
  return { state, world: worldWith(hooks, ["p1"]) };
}

describe("the simulation's invariants", () => {
  test("a sound run has no violation", () => {
    const { state, world } = soundRun();
    assert.deepEqual(checkInvariants(world, state), []);
  });

  test("a call that confirmed for a payment that was cancelled: an item delivered without payment", () => {
    const { state, world } = soundRun();
    state.payments[0] = payment("p1", { status: "cancelled" });
    const found = checkInvariants(world, state);
    assert.ok(
      found.some((v) => v.startsWith("delivery-unpaid")),
      found.join("\n"),
    );
  });

  test("a signed success call never confirmed, and a payment left on hold", () => {
    const { state, world } = soundRun();
    state.payments[0] = payment("p1", { status: "hold", confirmation_status: unconfirmed });
    const found = checkInvariants(world, state);
    for (const name of ["non-final", "chain-outcome", "ledger"])
      assert.ok(
        found.some((v) => v.startsWith(name)),
        `${name} in ${found.join("\n")}`,
      );
  });

  test("two deliveries and two charges for one lot", () => {
    const { state, world } = soundRun();
    const second = payment("p2");
    state.payments.push(second);
    state.auctions = [
      {
        id: "auc_1",
        expired: true,
        winner_bid_id: "b1",
        bids: [
          { id: "b1", status: "won", payment: state.payments[0] },
          { id: "b2", status: "failed", payment: second },
        ],
      },
    ];
    const found = checkInvariants(world, state);
    for (const name of ["one-delivery", "one-charge"])
      assert.ok(
        found.some((v) => v.startsWith(name)),
        `${name} in ${found.join("\n")}`,
      );
  });

  test("an event the receiver never got, and a status change without its webhook", () => {
    const { state } = soundRun();
    const world = worldWith([], ["p1"]);
    const found = checkInvariants(world, state);
    assert.ok(
      found.some((v) => v.includes("never reached the receiver")),
      found.join("\n"),
    );
    assert.ok(
      found.some((v) => v.includes("payment.paid: 1 moves, 0 webhooks")),
      found.join("\n"),
    );
  });

  test("books that do not add up to the payments", () => {
    const { state, world } = soundRun();
    state.balances[0].available = "14";
    const found = checkInvariants(world, state);
    assert.ok(
      found.some((v) => v.startsWith("ledger")),
      found.join("\n"),
    );
  });

  test("a reverted call charged for", () => {
    const { state } = soundRun();
    const world = worldWith(
      [0, 1, 2].map((i) => ({
        id: `evt_${i}`,
        type: `payment.${["pending", "hold", "paid"][i]}`,
        data: { id: "p1" },
      })),
      ["p1"],
      "revert",
    );
    const found = checkInvariants(world, state);
    assert.ok(
      found.some((v) => v.startsWith("chain-outcome")),
      found.join("\n"),
    );
  });
});

describe("the simulation's invariants for sellers, bank returns and reconciliation", () => {
  /** `soundRun`'s payment made for the seller's price: 10.50 of its 15.75 is the seller's share. */
  function sellerRun(transfers: { amount: number; amount_reversed: number }[], refunded = 0) {
    const { state } = soundRun();
    const hooks = ["pending", "hold", "paid"].map((to, i) => ({
      id: `evt_${i}`,
      type: `payment.${to}`,
      data: { id: "p1" },
    }));
    state.payments[0] = payment("p1", {
      price_item: { amount_seller: 10.5 },
      amount_refunded: refunded,
      transfers,
    });
    const balance = state.balances[0];
    balance.available = "4.5";
    balance.paid_to_sellers = "10.5";
    return { state, world: worldWith(hooks, ["p1"], "success", true) };
  }

  test("a seller paid their share is sound; paid twice, or a share kept after a refund, is not", () => {
    const paid = sellerRun([{ amount: 10.5, amount_reversed: 0 }]);
    assert.deepEqual(checkInvariants(paid.world, paid.state), []);
    const twice = sellerRun([
      { amount: 10.5, amount_reversed: 0 },
      { amount: 10.5, amount_reversed: 0 },
    ]);
    assert.ok(
      checkInvariants(twice.world, twice.state).some((v) =>
        v.includes("the seller holds 2100 cents of it, 1050 due"),
      ),
    );
    // A third refunded (5.25 of 15.75): the seller gives back 3.50 of their 10.50.
    const unreversed = sellerRun([{ amount: 10.5, amount_reversed: 0 }], 5.25);
    assert.ok(
      checkInvariants(unreversed.world, unreversed.state).some((v) =>
        v.includes("1050 cents of it, 700 due"),
      ),
    );
  });

  test("a payment that says its seller's transfer was not reversed, though it was in full", () => {
    const { state, world } = sellerRun([{ amount: 10.5, amount_reversed: 10.5 }], 15.75);
    Object.assign(state.payments[0], {
      status: "refunded",
      transaction_response: {
        error: { message: "The seller's transfer was not reversed after a refund: no" },
      },
    });
    Object.assign(state.balances[0], {
      available: "0",
      paid_to_sellers: "0",
      refunded: "15.75",
      platform_fees: "-0.46",
    });
    state.events.get("p1")!.push({ to_status: "refunded" });
    const found = checkInvariants(world, state);
    assert.ok(
      found.some((v) => v.includes("though the seller gave everything back")),
      found.join("\n"),
    );
  });

  test("a transfer for a price without a seller, and sellers owed money no payment waits for", () => {
    const { state, world } = sellerRun([{ amount: 10.5, amount_reversed: 0 }]);
    const plain = worldWith([], ["p1"]);
    assert.ok(
      checkInvariants(plain, state).some((v) => v.includes("transferred, though its price has no seller")),
    );
    state.balances[0].owed_to_sellers = "1";
    state.balances[0].available = "3.5";
    assert.ok(checkInvariants(world, state).some((v) => v.includes("the books owe sellers 1")));
  });

  test("a seller owed another seller's share in the books, though the sum is right", () => {
    const { state, world } = sellerRun([{ amount: 10.5, amount_reversed: 0 }]);
    state.sellerPayouts = [
      { kyc_id: "kyc_a", currency: "usd", owed_at_end: "10.5" },
      { kyc_id: "kyc_b", currency: "usd", owed_at_end: "-10.5" },
    ];
    const found = checkInvariants(world, state);
    assert.ok(
      found.some((v) => v.includes("seller kyc_a is owed 1050 cents in the books, 0 by the payments")),
    );
    assert.ok(found.some((v) => v.includes("seller kyc_b is owed -1050 cents")));
  });

  test("a debit returned after delivery is in the books as refunded, and is no unpaid delivery", () => {
    const { state } = soundRun();
    state.payments[0] = payment("p1", {
      status: "failed",
      payment_provider: "us_bank_account",
      transaction_response: { error: { code: "account_closed", returned_after_collection: true } },
    });
    const events = ["pending", "hold", "paid", "failed"].map((to_status) => ({ to_status }));
    state.events.set("p1", events);
    const hooks = events.map((e, i) => ({
      id: `evt_${i}`,
      type: `payment.${e.to_status}`,
      data: { id: "p1" },
    }));
    const world = worldWith(hooks, ["p1"]);
    // The platform bears the provider's fee; everything else went back to the shopper.
    Object.assign(state.balances[0], { available: "0", platform_fees: "-0.46", refunded: "15.75" });
    assert.deepEqual(checkInvariants(world, state), []);
    state.balances[0].refunded = "0";
    assert.ok(checkInvariants(world, state).some((v) => v.startsWith("ledger")));
  });

  test("a reconciliation that found a mismatch", () => {
    const { state, world } = soundRun();
    state.reconciliation = { id: "rec_2", status: "mismatched", mismatches: [{ kind: "provider_capture" }] };
    assert.ok(
      checkInvariants(world, state).some((v) => v.startsWith("reconciliation: run rec_2 is mismatched")),
    );
  });
});

describe("scenarios", () => {
  test("depend on the seed alone", () => {
    const options = { length: 40, restarts: true };
    assert.deepEqual(generateScenario(7, options), generateScenario(7, options));
    assert.notDeepEqual(generateScenario(7, options), generateScenario(8, options));
  });
});
