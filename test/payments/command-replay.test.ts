import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { onPostgres } from "../helpers/app.ts";
import { startCrashingApi } from "../helpers/crashing-api.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { assertProblem, call, createApp, expectStatus, signup } from "../helpers/http.ts";
import { CARDS, card, confirm, createPayment, waitForStatus } from "../helpers/payments.ts";
import { evmChainPrice } from "../helpers/triggers.ts";

// A cancel, refund or retry whose process died after its change committed, before its answer was kept:
// the retry with the same Idempotency-Key answers the payment (200), as creates and confirms do
// (docs/reliability.md, "Crash campaign").
let token: string;
let appId: string;
let priceId: string;
/** A price whose contract call goes through the sandbox chain, from a wallet made for it. */
let chainPriceId: string;
const fx = useTestApp(
  {},
  {
    tenants: false,
    async setUp() {
      token = (await signup(fx.app)).token;
      appId = (await createApp(fx.app, token)).id;
      priceId = expectStatus(
        await call(fx.app, "POST", `/prices/${appId}`, {
          token,
          body: { name: "Ticket", amount: 10, currency: "usd" },
        }),
        201,
      ).id;
      chainPriceId = (await evmChainPrice(fx.app, token, appId)).price.id;
    },
  },
);

const crashingApi = (point: string) => startCrashingApi(fx.app.connectionString!, point);

async function diesAnswering(url: string, key: string) {
  const api = await crashingApi("idempotency-answering");
  try {
    const died = await fetch(`${api.base}${url}`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": "application/json",
        "idempotency-key": key,
      },
      body: "{}",
    }).catch((error: Error) => error);
    assert.ok(died instanceof Error, "the answer was lost with the process");
    assert.equal(await api.exited, "SIGKILL");
  } finally {
    api.stop();
  }
}

describe("a command retried after a crash that committed it", {
  skip: !onPostgres && "needs PostgreSQL: the crashing API process shares the database",
}, () => {
  for (const command of ["cancel", "refund"] as const) {
    test(`${command}: the retry with its key answers the payment, 200`, { timeout: 120_000 }, async () => {
      const payment = await createPayment(fx.app, token, appId, {
        price_id: priceId,
        payment_provider: "card",
      });
      if (command === "refund") {
        expectStatus(await confirm(fx.app, token, appId, payment.id, card(CARDS.ok)), 200);
        await waitForStatus(fx.app, token, appId, payment.id, "paid");
      }
      const url = `/payments/${appId}/${payment.id}/${command}`;
      await diesAnswering(url, `${command}-once`);
      const status = command === "cancel" ? "cancelled" : "refunded";
      const retried = await call(fx.app, "POST", url, {
        token,
        body: {},
        headers: { "idempotency-key": `${command}-once` },
      });
      assert.equal(retried.status, 200, retried.text);
      assert.equal(retried.body.id, payment.id);
      assert.equal(retried.body.status, status);
      const replayed = await call(fx.app, "POST", url, {
        token,
        body: {},
        headers: { "idempotency-key": `${command}-once` },
      });
      assert.equal(replayed.headers["idempotent-replayed"], "true");
      // Another key is another command: refused, the payment has moved on.
      assertProblem(
        await call(fx.app, "POST", url, {
          token,
          body: {},
          headers: { "idempotency-key": `${command}-twice` },
        }),
        409,
        "invalid_state_transition",
      );
    });
  }

  test("retry: the retry with its key answers the reopened payment, 200", { timeout: 120_000 }, async () => {
    // The node refuses the call (an unfunded wallet): failed, the card released, retry reopens it.
    const payment = await createPayment(fx.app, token, appId, {
      price_id: chainPriceId,
      payment_provider: "card",
      trigger_data_input: {
        params_data_input: {
          receiver: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
          quantity: 1,
          order_id: "sandbox:unfunded",
        },
      },
    });
    expectStatus(await confirm(fx.app, token, appId, payment.id, card(CARDS.ok)), 200);
    await waitForStatus(fx.app, token, appId, payment.id, "failed");
    const url = `/payments/${appId}/${payment.id}/retry`;
    await diesAnswering(url, "retry-once");
    const retried = await call(fx.app, "POST", url, {
      token,
      body: {},
      headers: { "idempotency-key": "retry-once" },
    });
    assert.equal(retried.status, 200, retried.text);
    assert.equal(retried.body.id, payment.id);
    assert.equal(retried.body.status, "pending");
    assert.equal(retried.body.transaction_response.error, null);
    // Another key is another retry: a pending payment has no failed step to retry.
    assertProblem(
      await call(fx.app, "POST", url, { token, body: {}, headers: { "idempotency-key": "retry-twice" } }),
      409,
      "invalid_state_transition",
    );
  });
});
