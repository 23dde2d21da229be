import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, test } from "node:test";
import { eq } from "drizzle-orm";
import { privateKeyToAccount } from "viem/accounts";
import {
  sandboxEvents,
  sandboxIntents,
  sandboxTransfers,
} from "../../src/platform/providers/payments/sandbox/tables.ts";
import { onPostgres } from "../helpers/app.ts";
import { type Anvil, startAnvil } from "../helpers/chains.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { call, createApp, expectStatus, signup } from "../helpers/http.ts";
import { onboardSeller } from "../helpers/kyc.ts";
import { CARDS, card, confirm, createPayment, waitForStatus } from "../helpers/payments.ts";
import { createPrice } from "../helpers/prices.ts";
import { evmTrigger } from "../helpers/triggers.ts";
import { newMasterKey } from "../helpers/wallets.ts";
import { startWorker as startWorkerProcess } from "../helpers/worker.ts";

// A killed worker's job is retried once it times out; short here so the test is quick.
const JOB_TIMEOUT = "2";
// How long the healthy worker may take to find the dead one's job and finish it: its own process
// start, the job's timeout and the retry. A CI run on a machine three times slower than usual saw
// the capture and transfer cases take over 20 s.
const RESUMED = 60_000;
// anvil's chain id: the test network is declared as the local chain (docs/chains.md).
const LOCAL_CHAIN_ID = "31337";

// The owner and their app only: no worker runs here to mail a member's verification link.
let tenant: { owner: Awaited<ReturnType<typeof signup>>; app: any };
let price: any;
let dir: string;
let anvil: Anvil;
const masterKey = newMasterKey();
// anvil's development account 1 ("test … junk"): it holds no real funds.
const WALLET_KEY = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d";
const WALLET_ADDRESS = privateKeyToAccount(WALLET_KEY).address;

describe("a worker killed inside a step", {
  skip: !onPostgres && "needs PostgreSQL: worker processes share the database",
}, () => {
  // The API in this process, without a worker: the worker runs in the child processes.
  const fx = useTestApp(
    {
      RUN_WORKER: "false",
      JOB_TIMEOUT_SECONDS: JOB_TIMEOUT,
      SECRETS_MASTER_KEY: masterKey,
      // Wallets default to the test network's chain id: anvil's.
      EVM_TESTNET_CHAIN_ID: LOCAL_CHAIN_ID,
    },
    {
      tenants: false,
      async setUp() {
        const owner = await signup(fx.app);
        tenant = { owner, app: await createApp(fx.app, owner.token) };
        price = await createPrice(fx.app, tenant.owner.token, tenant.app.id, { amount: 40 });
        dir = mkdtempSync(path.join(os.tmpdir(), "crash-"));
        anvil = await startAnvil();
      },
      async tearDown() {
        rmSync(dir, { recursive: true, force: true });
        await anvil?.stop();
      },
    },
  );

  function startWorker(env: Record<string, string>) {
    return startWorkerProcess(fx.app.connectionString!, {
      JOB_TIMEOUT_SECONDS: JOB_TIMEOUT,
      SECRETS_MASTER_KEY: masterKey,
      // Contract calls go to a real EVM node (anvil, mining each transaction as it arrives).
      CHAINS: "real",
      EVM_TESTNET_RPC_URL: anvil.url,
      EVM_TESTNET_CHAIN_ID: LOCAL_CHAIN_ID,
      EVM_TESTNET_CONFIRMATIONS: "1",
      EVM_TESTNET_BLOCK_SECONDS: "1",
      ...env,
    });
  }

  /** A price whose trigger calls a contract from the anvil-funded wallet. */
  async function chainPrice() {
    const wallet = expectStatus(
      await call(fx.app, "POST", `/wallets/${tenant.app.id}`, {
        token: tenant.owner.token,
        body: { name: "Minter", type: "evm", wallet_data: { evm: { private_key: WALLET_KEY } } },
      }),
      201,
    );
    const trigger = expectStatus(
      await call(fx.app, "POST", `/triggers/${tenant.app.id}`, {
        token: tenant.owner.token,
        body: evmTrigger(wallet.id),
      }),
      201,
    );
    return createPrice(fx.app, tenant.owner.token, tenant.app.id, {
      amount: 12,
      trigger_id: trigger.id,
      chain: "evm",
    });
  }

  for (const point of ["chain-call-signed", "chain-call-sent"]) {
    test(`right after the contract call was ${point === "chain-call-signed" ? "signed and stored" : "broadcast"}: one transaction on the chain, and the payment ends paid`, async () => {
      const before = Number(await anvil.rpc("eth_getTransactionCount", [WALLET_ADDRESS, "latest"]));
      const payment = await createPayment(fx.app, tenant.owner.token, tenant.app.id, {
        price_id: (await chainPrice()).id,
        payment_provider: "card",
        trigger_data_input: {
          params_data_input: { receiver: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", quantity: 1 },
        },
      });
      expectStatus(await confirm(fx.app, tenant.owner.token, tenant.app.id, payment.id, card(CARDS.ok)), 200);
      const crashing = startWorker({ FAULT_CRASH_AT: point, FAULT_MARKER: path.join(dir, point) });
      assert.equal(await crashing.exited, "SIGKILL", "the worker died inside the chain step");
      const healthy = startWorker({});
      let paid: any;
      try {
        paid = await waitForStatus(fx.app, tenant.owner.token, tenant.app.id, payment.id, "paid", RESUMED);
      } finally {
        healthy.child.kill("SIGTERM");
        await healthy.exited;
      }
      const after = Number(await anvil.rpc("eth_getTransactionCount", [WALLET_ADDRESS, "latest"]));
      assert.equal(after - before, 1, "exactly one transaction from the wallet");
      const receipt = await anvil.rpc("eth_getTransactionReceipt", [paid.transaction_id]);
      assert.equal(receipt?.status, "0x1", "the payment names the transaction that was mined");
    });
  }

  test("right after the capture was sent: one capture, and the payment ends paid", async () => {
    const payment = await createPayment(fx.app, tenant.owner.token, tenant.app.id, {
      price_id: price.id,
      payment_provider: "card",
    });
    expectStatus(await confirm(fx.app, tenant.owner.token, tenant.app.id, payment.id, card(CARDS.ok)), 200);
    const crashing = startWorker({ FAULT_CRASH_AT: "capture-sent", FAULT_MARKER: path.join(dir, "capture") });
    assert.equal(await crashing.exited, "SIGKILL", "the worker died inside the capture step");
    const healthy = startWorker({});
    try {
      await waitForStatus(fx.app, tenant.owner.token, tenant.app.id, payment.id, "paid", RESUMED);
    } finally {
      healthy.child.kill("SIGTERM");
      await healthy.exited;
    }
    const intents = await fx.app.deps.db.select().from(sandboxIntents);
    const mine = intents.filter((i) => (i.metadata as Record<string, string>).payment_id === payment.id);
    assert.equal(mine.length, 1, "one intent");
    assert.equal(mine[0].amountReceived, mine[0].amount, "captured in full");
    const events = await fx.app.deps.db
      .select()
      .from(sandboxEvents)
      .where(eq(sandboxEvents.intentId, mine[0].id));
    assert.equal(events.filter((e) => e.type === "payment_intent.succeeded").length, 1, "captured once");
  });

  test("right after a transfer was sent: one transfer to the seller, and the payment ends paid", async () => {
    // The seller onboards through the widget; a healthy worker runs its jobs.
    const onboarding = startWorker({});
    let seller: { id: string; account_id: string };
    try {
      seller = await onboardSeller(fx.app, tenant.app.id, tenant.owner.token, "crash-seller");
    } finally {
      onboarding.child.kill("SIGTERM");
      await onboarding.exited;
    }
    const sold = await createPrice(fx.app, tenant.owner.token, tenant.app.id, {
      amount: 25,
      kyc_id: seller.id,
    });
    const payment = await createPayment(fx.app, tenant.owner.token, tenant.app.id, {
      price_id: sold.id,
      payment_provider: "card",
    });
    expectStatus(await confirm(fx.app, tenant.owner.token, tenant.app.id, payment.id, card(CARDS.ok)), 200);
    const crashing = startWorker({
      FAULT_CRASH_AT: "transfer-sent",
      FAULT_MARKER: path.join(dir, "transfer"),
    });
    assert.equal(await crashing.exited, "SIGKILL", "the worker died inside the transfer step");
    const healthy = startWorker({});
    try {
      await waitForStatus(fx.app, tenant.owner.token, tenant.app.id, payment.id, "paid", RESUMED);
    } finally {
      healthy.child.kill("SIGTERM");
      await healthy.exited;
    }
    const transfers = await fx.app.deps.db
      .select()
      .from(sandboxTransfers)
      .where(eq(sandboxTransfers.destination, seller.account_id));
    assert.equal(transfers.length, 1, "one transfer");
    assert.equal(transfers[0].amount, 2475n, "the seller's share: 25.00 less the 1% platform fee");
  });
});
