// A payment's answer carries its app (with the creator and the caller's permissions) and its price.
// A process remembers those (the app also as presented, per role) for the next read of a payment
// of the same app, price and caller, and reads the payment alone with its app's version
// (src/modules/payments/reads.ts): every change below must show in the very next answer, as it did
// when everything was read each time.
import assert from "node:assert/strict";
import { test } from "node:test";
import { useTestApp } from "../helpers/fixture.ts";
import { call, expectStatus } from "../helpers/http.ts";
import { createPayment } from "../helpers/payments.ts";
import { createPrice } from "../helpers/prices.ts";

let price: { id: string };
let payment: { id: string };

const fx = useTestApp(
  {},
  {
    async setUp() {
      price = await createPrice(fx.app, fx.tenants.owner.token, fx.tenants.app.id, { amount: 15 });
      payment = await createPayment(fx.app, fx.tenants.owner.token, fx.tenants.app.id, {
        price_id: price.id,
        payment_provider: "card",
      });
    },
  },
);

const read = async (token = fx.tenants.owner.token) =>
  expectStatus(await call(fx.app, "GET", `/payments/${fx.tenants.app.id}/${payment.id}`, { token }), 200);
const patch = async (url: string, body: Record<string, unknown>, token = fx.tenants.owner.token) =>
  expectStatus(await call(fx.app, "PATCH", url, { token, body }), 200);

test("each change to the app, its creator, the price or a member shows in the next answer", async () => {
  const { app, owner, developer } = fx.tenants;
  // Read twice: the second answer comes from the remembered context.
  assert.deepEqual(await read(), await read());

  await patch(`/apps/${app.id}`, { name: "Renamed shop" });
  assert.equal((await read()).app.name, "Renamed shop", "the app");

  await patch("/users/me", { first_name: "Renamed" });
  assert.equal((await read()).app.user.first_name, "Renamed", "the app's creator");

  await patch(`/prices/${app.id}/${price.id}`, { name: "Renamed price" });
  assert.equal((await read()).price.name, "Renamed price", "the price");

  const views = (await read()).price.views;
  expectStatus(await call(fx.app, "GET", `/p/${price.id}`), 200);
  assert.equal((await read()).price.views, views + 1, "a view of the price's page, which moves no version");

  const before = await read(developer.token);
  assert.equal(before.app.permissions.can_delete, false, "a developer");
  const members = expectStatus(await call(fx.app, "GET", `/members/${app.id}`, { token: owner.token }), 200);
  const member = members.find((m: { user_id: string | null }) => m.user_id === developer.user.id);
  await patch(`/members/${app.id}/${member.id}`, { role: "owner" });
  assert.equal((await read(developer.token)).app.permissions.can_delete, true, "the member's new role");
  assert.equal((await read()).app.permissions.can_delete, true, "the owner's answer is the owner's");

  // Another app's caller still reads none of it.
  const outsider = await call(fx.app, "GET", `/payments/${app.id}/${payment.id}`, {
    token: fx.tenants.outsider.token,
  });
  assert.equal(outsider.status, 404);
});

// A page's prices are remembered the same way, by app and price at the app's version, and
// presented once for every payment of the page that has them (`pagePrices`).
test("each change to a price shows in the next page of payments, for a member and for a key", async () => {
  const { app, owner } = fx.tenants;
  const key = await fx.key();
  const other = await createPrice(fx.app, owner.token, app.id, { amount: 7 });
  await createPayment(fx.app, owner.token, app.id, { price_id: other.id, payment_provider: "card" });
  const list = async (token: string) => {
    const page = expectStatus(await call(fx.app, "GET", `/payments/${app.id}?limit=100`, { token }), 200);
    return new Map<string, { name: string; views: number; expired: boolean; amount: number }>(
      page.map((p: { id: string; price: { id: string } }) => [p.price.id, p.price]),
    );
  };
  for (const token of [owner.token, key]) {
    // Read twice: the second page's prices come from what the first remembered.
    assert.deepEqual(await list(token), await list(token));
    assert.equal((await list(token)).get(other.id)?.amount, 7, "each payment shows its own price");
  }

  await patch(`/prices/${app.id}/${other.id}`, { name: "Renamed in the list" });
  for (const token of [owner.token, key])
    assert.equal((await list(token)).get(other.id)?.name, "Renamed in the list", "the price");

  const views = (await list(key)).get(other.id)!.views;
  expectStatus(await call(fx.app, "GET", `/p/${other.id}`), 200);
  for (const token of [owner.token, key])
    assert.equal((await list(token)).get(other.id)?.views, views + 1, "a view, which moves no version");

  expectStatus(await call(fx.app, "DELETE", `/prices/${app.id}/${other.id}`, { token: owner.token }), 204);
  for (const token of [owner.token, key])
    assert.equal((await list(token)).get(other.id)?.expired, true, "a price with payments, expired");
});
