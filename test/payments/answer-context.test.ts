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
