import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { type SQL, sql } from "drizzle-orm";
import {
  type ContextKey,
  type PaymentContext,
  PaymentContexts,
  readContext,
  unchangedSince,
  unchangedSinceValues,
} from "../../src/modules/payments/context.ts";
import { statementRunner, withValues } from "../../src/platform/db/index.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { call, expectStatus } from "../helpers/http.ts";
import { onboardSeller } from "../helpers/kyc.ts";
import { createPrice } from "../helpers/prices.ts";
import { evmTrigger } from "../helpers/triggers.ts";
import { newMasterKey } from "../helpers/wallets.ts";
import { Receiver } from "../helpers/webhooks.ts";

/** The create's guard as its statement sends it: the template with a key's and a context's values. */
const guardOf = (key: ContextKey, context: PaymentContext) =>
  withValues(sql`select ${unchangedSince()} as ok`, unchangedSinceValues(key, context));

// A process remembers what a payment of a price was decided on (app, price, trigger, role, seller,
// webhook endpoints), so the next create of that price costs one statement. The write checks that
// none of it changed; these tests change each part and expect the change to count at once.

let wallet: { id: string };
let trigger: { id: string };
let kyc: { id: string };
let price: { id: string };
const input = { params_data_input: { receiver: "0x5fbdb2315678afecb367f032d93f642f64180aa3", quantity: 2 } };

const fx = useTestApp(
  { SECRETS_MASTER_KEY: newMasterKey(), WEBHOOKS_ALLOW_LOOPBACK: "true" },
  {
    async setUp() {
      wallet = expectStatus(
        await call(fx.app, "POST", `/wallets/${fx.tenants.app.id}`, {
          token: fx.tenants.owner.token,
          body: { name: "Minter", type: "evm" },
        }),
        201,
      );
      trigger = expectStatus(
        await call(fx.app, "POST", `/triggers/${fx.tenants.app.id}`, {
          token: fx.tenants.owner.token,
          body: evmTrigger(wallet.id),
        }),
        201,
      );
      // A seller who can be paid: onboarded through the widget.
      kyc = await onboardSeller(fx.app, fx.tenants.app.id, fx.tenants.owner.token, "context-seller");
      price = await createPrice(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
        amount: 20,
        trigger_id: trigger.id,
        kyc_id: kyc.id,
        chain: "evm",
      });
    },
  },
);

async function rows<T>(query: SQL): Promise<T[]> {
  const result = await fx.app.deps.db.execute(query);
  return ((result as { rows?: unknown[] }).rows ?? result) as T[];
}

const create = (token = fx.tenants.developer.token) =>
  call(fx.app, "POST", `/payments/${fx.tenants.app.id}`, {
    token,
    body: { price_id: price.id, payment_provider: "card", trigger_data_input: input },
  });

describe("the write's check of its context", () => {
  const key = () => ({
    appId: fx.tenants.app.id,
    priceId: price.id,
    userId: fx.tenants.developer.user.id as string,
  });

  /** Whether the create's guard still holds for `context`. */
  async function holds(context: PaymentContext) {
    const [row] = await statementRunner(fx.app.deps.database)(guardOf(key(), context));
    return row.ok;
  }

  // Each row a payment is decided on, touched without changing a value: a new row version is a
  // change as far as the guard knows, which errs on the side of reading again.
  const touches: [string, () => SQL][] = [
    ["the app", () => sql`update apps set name = name where id = ${fx.tenants.app.id}`],
    [
      "the app's creator",
      () => sql`update users set username = username where id = ${fx.tenants.owner.user.id}`,
    ],
    // The price's version is its values without the view counter: a real change counts.
    ["the price", () => sql`update prices set name = name || '.' where id = ${price.id}`],
    ["the trigger", () => sql`update triggers set call_data = call_data where id = ${trigger.id}`],
    ["the trigger's wallet", () => sql`update wallets set name = name where id = ${wallet.id}`],
    [
      "the caller's membership",
      () =>
        sql`update members set role = role where app_id = ${fx.tenants.app.id} and user_id = ${fx.tenants.developer.user.id}`,
    ],
    ["the seller", () => sql`update kycs set active = active where id = ${kyc.id}`],
  ];
  for (const [what, touch] of touches) {
    test(`a change to ${what} fails it`, async () => {
      const context = await readContext(fx.app.deps.db, key());
      assert.ok(context);
      assert.equal(await holds(context), true);
      await fx.app.deps.db.execute(touch());
      assert.equal(await holds(context), false);
    });
  }

  test("a view of the price's checkout page keeps it", async () => {
    const context = await readContext(fx.app.deps.db, key());
    assert.ok(context);
    const page = await call(fx.app, "GET", `/checkout/${price.id}`);
    assert.equal(page.status, 200);
    assert.equal(await holds(context), true);
  });

  test("a webhook endpoint added, changed or removed fails it", async () => {
    const receiver = new Receiver();
    try {
      let context = await readContext(fx.app.deps.db, key());
      const endpoint = expectStatus(
        await call(fx.app, "POST", `/webhooks/${fx.tenants.app.id}`, {
          token: fx.tenants.owner.token,
          body: { url: await receiver.start(), events: ["payment.*"] },
        }),
        201,
      );
      assert.equal(await holds(context!), false, "added");
      context = await readContext(fx.app.deps.db, key());
      await fx.app.deps.db.execute(
        sql`update webhook_endpoints set events = events where id = ${endpoint.id}`,
      );
      assert.equal(await holds(context!), false, "changed");
      context = await readContext(fx.app.deps.db, key());
      expectStatus(
        await call(fx.app, "DELETE", `/webhooks/${fx.tenants.app.id}/${endpoint.id}`, {
          token: fx.tenants.owner.token,
        }),
        204,
      );
      assert.equal(await holds(context!), false, "removed");
    } finally {
      await receiver.stop();
    }
  });

  test("a caller who is not a member has a context of their own, and the guard holds for it", async () => {
    const outsiderKey = { ...key(), userId: fx.tenants.outsider.user.id as string };
    const context = await readContext(fx.app.deps.db, outsiderKey);
    assert.equal(context?.role, null);
    const [row] = await statementRunner(fx.app.deps.database)(guardOf(outsiderKey, context!));
    assert.equal(row.ok, true);
  });
});

describe("the guard of a context without a trigger, a seller or a membership", () => {
  // The guard reads the app's version, which any change to a row of the app's contexts raises: a
  // plain price's create or an API key's sees the same changes as any other.
  const plainKey = async (userId: string | null) => {
    const plain = await createPrice(fx.app, fx.tenants.owner.token, fx.tenants.app.id, { amount: 3 });
    return { appId: fx.tenants.app.id, priceId: plain.id as string, userId };
  };
  const holdsFor = async (key: Awaited<ReturnType<typeof plainKey>>, context: PaymentContext) => {
    const [row] = await statementRunner(fx.app.deps.database)(guardOf(key, context));
    return row.ok;
  };
  const touches: [string, (key: Awaited<ReturnType<typeof plainKey>>) => SQL][] = [
    ["the app", () => sql`update apps set name = name where id = ${fx.tenants.app.id}`],
    [
      "the app's creator",
      () => sql`update users set username = username where id = ${fx.tenants.owner.user.id}`,
    ],
    ["the price", (key) => sql`update prices set trigger_id = ${trigger.id} where id = ${key.priceId}`],
    [
      "the caller's membership",
      () =>
        sql`update members set role = role where app_id = ${fx.tenants.app.id} and user_id = ${fx.tenants.developer.user.id}`,
    ],
    [
      "the caller's user",
      () => sql`update users set username = username where id = ${fx.tenants.developer.user.id}`,
    ],
    ["another price of the app", () => sql`update prices set name = name || '.' where id = ${price.id}`],
  ];
  for (const [what, touch] of touches) {
    test(`a user's create of a plain price: a change to ${what} fails it`, async () => {
      const key = await plainKey(fx.tenants.developer.user.id as string);
      const context = await readContext(fx.app.deps.db, key);
      assert.ok(context && context.price?.triggerId === null && context.price.kycId === null);
      assert.equal(await holdsFor(key, context), true);
      await fx.app.deps.db.execute(touch(key));
      assert.equal(await holdsFor(key, context), false);
    });
  }

  test("an API key's create of a plain price: the app's change fails it, another app's does not", async () => {
    const key = await plainKey(null);
    const context = await readContext(fx.app.deps.db, key);
    assert.ok(context);
    const other = expectStatus(
      await call(fx.app, "POST", "/apps", { token: fx.tenants.owner.token, body: { name: "Other app" } }),
      201,
    );
    await createPrice(fx.app, fx.tenants.owner.token, other.id, { amount: 4 });
    assert.equal(await holdsFor(key, context), true);
    await fx.app.deps.db.execute(sql`update apps set name = name where id = ${fx.tenants.app.id}`);
    assert.equal(await holdsFor(key, context), false);
  });

  test("every table a context is read from raises the app's version when it changes", async () => {
    // The guard is only as good as this list: a table the context statement reads without a
    // trigger would let a create decide on a stale row. The control: apps' own table has none,
    // and its changes count through its own row version.
    const found = await rows<{ table: string }>(
      sql`select distinct event_object_table as table from information_schema.triggers
        where action_statement like '%payment_context%'`,
    );
    assert.deepEqual(found.map((row) => row.table).sort(), [
      "kycs",
      "members",
      "prices",
      "triggers",
      "users",
      "wallets",
      "webhook_endpoints",
    ]);
  });
});

describe("creates on a remembered context", () => {
  const stored = async (id: string) =>
    (
      await rows<{ amount: string; app_amount: string }>(
        sql`select amount::text, app_amount::text from payments where id = ${id}`,
      )
    )[0];

  test("the second create of a price by the same caller uses the remembered context", async () => {
    expectStatus(await create(), 201);
    const remembered = PaymentContexts.of(fx.app.deps.db).get({
      appId: fx.tenants.app.id,
      priceId: price.id,
      userId: fx.tenants.developer.user.id,
    });
    assert.ok(remembered, "the context is remembered after a create");
    expectStatus(await create(), 201);
  });

  test("a shopper's view of the checkout page between two creates keeps the remembered context", async () => {
    const contexts = PaymentContexts.of(fx.app.deps.db);
    const key = { appId: fx.tenants.app.id, priceId: price.id, userId: fx.tenants.developer.user.id };
    expectStatus(await create(), 201);
    const remembered = contexts.get(key);
    assert.ok(remembered);
    assert.equal((await call(fx.app, "GET", `/checkout/${price.id}`)).status, 200);
    expectStatus(await create(), 201);
    // Read again, the context would be a new object: the same one means the write held first time.
    assert.equal(contexts.get(key), remembered, "the create used the remembered context");
  });

  test("concurrent checkout views never make a create answer 409", async () => {
    const views = Array.from({ length: 20 }, () => call(fx.app, "GET", `/checkout/${price.id}`));
    const creates = Array.from({ length: 20 }, () => create());
    const [viewed, created] = await Promise.all([Promise.all(views), Promise.all(creates)]);
    assert.ok(viewed.every((r) => r.status === 200));
    assert.deepEqual(
      created.map((r) => r.status),
      created.map(() => 201),
    );
    const [{ views: count }] = await rows<{ views: number }>(
      sql`select views from prices where id = ${price.id}`,
    );
    assert.ok(count >= 20, "every view counted");
  });

  test("a seller deactivated is refused at the next create, and payable again once reactivated", async () => {
    expectStatus(await create(), 201);
    const url = `/apps/${fx.tenants.app.id}/kycs/${kyc.id}`;
    expectStatus(
      await call(fx.app, "PATCH", url, { token: fx.tenants.owner.token, body: { active: false } }),
      200,
    );
    const refused = await create();
    assert.equal(refused.status, 409);
    assert.equal(refused.body.code, "seller_not_payable");
    expectStatus(
      await call(fx.app, "PATCH", url, { token: fx.tenants.owner.token, body: { active: true } }),
      200,
    );
    expectStatus(await create(), 201);
  });

  test("a new amount, app fee, endpoint or expiry counts from the next create", async () => {
    const first = expectStatus(await create(), 201);
    assert.equal((await stored(first.id)).amount, "2000");

    expectStatus(
      await call(fx.app, "PATCH", `/prices/${fx.tenants.app.id}/${price.id}`, {
        token: fx.tenants.owner.token,
        body: { amount: 25 },
      }),
      200,
    );
    const repriced = expectStatus(await create(), 201);
    assert.equal((await stored(repriced.id)).amount, "2500");

    expectStatus(
      await call(fx.app, "PATCH", `/apps/${fx.tenants.app.id}`, {
        token: fx.tenants.owner.token,
        body: { type: "marketplace", app_fee: 10 },
      }),
      200,
    );
    const refeed = expectStatus(await create(), 201);
    assert.equal((await stored(repriced.id)).app_amount, "0");
    assert.equal((await stored(refeed.id)).app_amount, "250", "10% of 25.00");

    const receiver = new Receiver();
    try {
      const endpoint = expectStatus(
        await call(fx.app, "POST", `/webhooks/${fx.tenants.app.id}`, {
          token: fx.tenants.owner.token,
          body: { url: await receiver.start(), events: ["payment.pending"] },
        }),
        201,
      );
      const announced = expectStatus(await create(), 201);
      const deliveries = await rows<{ n: number }>(
        sql`select count(*)::int as n from webhook_deliveries d join webhook_events e on e.id = d.event_id
          where d.endpoint_id = ${endpoint.id} and e.data->>'id' = ${announced.id}`,
      );
      assert.equal(deliveries[0].n, 1, "the new endpoint hears of the next payment");
    } finally {
      await receiver.stop();
    }

    expectStatus(
      await call(fx.app, "PATCH", `/prices/${fx.tenants.app.id}/${price.id}`, {
        token: fx.tenants.owner.token,
        body: { expired: true },
      }),
      200,
    );
    expectStatus(await create(), 409);
  });

  test("a member removed is refused at their next create", async () => {
    const other = await createPrice(fx.app, fx.tenants.owner.token, fx.tenants.app.id, { amount: 7 });
    const body = { price_id: other.id, payment_provider: "card" };
    expectStatus(
      await call(fx.app, "POST", `/payments/${fx.tenants.app.id}`, {
        token: fx.tenants.developer.token,
        body,
      }),
      201,
    );
    expectStatus(
      await call(fx.app, "DELETE", `/members/${fx.tenants.app.id}/${fx.tenants.developerMemberId}`, {
        token: fx.tenants.owner.token,
      }),
      204,
    );
    expectStatus(
      await call(fx.app, "POST", `/payments/${fx.tenants.app.id}`, {
        token: fx.tenants.developer.token,
        body,
      }),
      404,
    );
  });

  test("a refusal on a remembered context is decided again on a fresh read", async () => {
    const fresh = await createPrice(fx.app, fx.tenants.owner.token, fx.tenants.app.id, { amount: 5 });
    const body = { price_id: fresh.id, payment_provider: "card" };
    // The outsider is refused (no such app for them); the refusal is not remembered.
    expectStatus(
      await call(fx.app, "POST", `/payments/${fx.tenants.app.id}`, {
        token: fx.tenants.outsider.token,
        body,
      }),
      404,
    );
    const remembered = PaymentContexts.of(fx.app.deps.db).get({
      appId: fx.tenants.app.id,
      priceId: fresh.id,
      userId: fx.tenants.outsider.user.id,
    });
    assert.equal(remembered, undefined);
  });
});
