import assert from "node:assert/strict";
import { test } from "node:test";
import { sql } from "drizzle-orm";
import {
  indexedPart,
  patternTrigrams,
  rareInSample,
  type TrigramShares,
  valueTrigrams,
} from "../../src/modules/payments/email-search.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { call, expectStatus } from "../helpers/http.ts";
import { createPayment } from "../helpers/payments.ts";
import { createPrice } from "../helpers/prices.ts";
import { paymentStatements } from "../helpers/statements.ts";

// A part of an email searched on the trigram index by the part of its text whose trigrams are rare
// (src/modules/payments/email-search.ts): the model of pg_trgm's trigrams checked against the
// database's own, the part chosen by the shares, and the search as a user makes it once ANALYZE
// has sampled the addresses, still finding exactly what contains the whole text.

const fx = useTestApp();

type Rows = { rows: Record<string, unknown>[] };

test("an address's trigrams are pg_trgm's (show_trgm)", async () => {
  for (const value of ["ada.lovelace@example.com", "shopper777@example.com", "a@b.co", "x_y%z@q-r.example"]) {
    const { rows } = (await fx.app.deps.db.execute(sql`select show_trgm(${value}) as t`)) as Rows;
    assert.deepEqual([...valueTrigrams(value)].sort(), [...(rows[0].t as string[])].sort(), value);
  }
});

test("a pattern's trigrams are the ones the index is asked for: its candidates, counted by EXPLAIN", async () => {
  const values = [
    "shopper777@example.com",
    "shopper1777@example.com",
    "shopper7770@example.com",
    "r777x@example.com",
    "ada.lovelace@example.com",
    "ada.l@example.com",
    "ada@example.com",
    "a.lo@example.com",
    "lovelace@navy.example",
    "xr777@x.example",
  ];
  const parts = ["r777@", "r777", "777@", "ada.l", ".lo", "e@n", "lovelace", "@example"];
  await fx.app.deps.db.transaction(async (tx) => {
    await tx.execute(sql.raw("create temporary table trigram_model (v text) on commit drop"));
    for (const value of values) await tx.execute(sql`insert into trigram_model values (${value})`);
    await tx.execute(sql.raw("create index on trigram_model using gin (v gin_trgm_ops)"));
    await tx.execute(sql.raw("set local enable_seqscan = off"));
    for (const part of parts) {
      const wanted = patternTrigrams(part);
      const expected = values.filter((value) => {
        const held = valueTrigrams(value);
        return [...wanted].every((trigram) => held.has(trigram));
      }).length;
      const { rows } = (await tx.execute(
        sql.raw(
          `explain (analyze, costs off, timing off) select v from trigram_model where v like '%${part}%'`,
        ),
      )) as Rows;
      const plan = rows.map((row) => row["QUERY PLAN"]).join("\n");
      const found = plan.match(/Bitmap Index Scan[^\n]*rows=(\d+)/);
      assert.ok(found, plan);
      assert.equal(Number(found[1]), expected, `${part}: ${[...wanted].join("|")}\n${plan}`);
    }
  });
});

test("the index is given the part whose trigrams are rare; the whole text otherwise", () => {
  const shares: TrigramShares = { shares: new Map(), unseen: 0.005, addresses: [], parts: new Map() };
  for (const value of ["shopper1@example.com", "shopper7@example.com"]) {
    for (const trigram of valueTrigrams(value)) shares.shares.set(trigram, 1);
  }
  assert.equal(indexedPart("shopper777@example.com", shares), "r777@");
  assert.equal(indexedPart("example.com", shares), "example.com", "nothing rare in it: the whole");
  assert.equal(indexedPart("lovelace", shares), "lovelace", "nothing common in it: the whole");
  assert.equal(indexedPart("shopper777@example.com", undefined), "shopper777@example.com", "no statistics");
  assert.equal(indexedPart("jörg777@example.com", shares), "jörg777@example.com", "not ASCII");
});

test("a text no sampled address contains is rare; without statistics nothing is", () => {
  const shares: TrigramShares = {
    shares: new Map(),
    unseen: 0.005,
    addresses: ["shopper1@example.com", "shopper7@example.com"],
    parts: new Map(),
  };
  assert.equal(rareInSample("r77@", shares), true);
  assert.equal(rareInSample("r7@", shares), false);
  assert.equal(rareInSample("example", shares), false);
  assert.equal(rareInSample("r77@", undefined), false);
});

test("once ANALYZE has sampled the addresses, a search reads the rare part and checks the whole", async () => {
  const token = fx.tenants.owner.token;
  const appId = fx.tenants.app.id;
  const price = await createPrice(fx.app, token, appId, { name: "Mug", amount: 12 });
  const emails = [
    ...Array.from({ length: 40 }, (_, n) => `buyer${n + 1}@shop.example`),
    "buyer7@elsewhere.example",
    "abuyer7@shop.example",
  ];
  const made = new Map<string, string>();
  for (const email of emails) {
    const payment = await createPayment(fx.app, token, appId, {
      price_id: price.id,
      payment_provider: "card",
      shopper_email: email,
    });
    made.set(email, payment.id);
  }
  // What autovacuum does on a live database; PGlite runs no autovacuum.
  await fx.app.deps.db.execute(sql.raw("analyze payments"));
  let items!: { id: string; shopper_email: string }[];
  const sent = await paymentStatements(fx.app, async () => {
    const answer = await call(fx.app, "GET", `/payments/${appId}?shopper_email=BUYER7@shop.example`, {
      token,
    });
    items = expectStatus(answer, 200);
  });
  assert.deepEqual(
    items.map((item) => item.shopper_email).sort(),
    ["abuyer7@shop.example", "buyer7@shop.example"],
    "what contains the whole text, not what holds only its rare part",
  );
  // The index was given a part: the whole text is checked apart.
  assert.ok(
    sent.some((text) => /"payments"\."shopper_email" ilike/.test(text)),
    sent.join("\n\n"),
  );
  // A part as a LIKE would read it: `_` and `%` are text.
  const literal = expectStatus(
    await call(fx.app, "GET", `/payments/${appId}?shopper_email=buyer_7@shop.example`, { token }),
    200,
  );
  assert.deepEqual(literal, []);
});
