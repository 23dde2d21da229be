import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { useTestApp } from "../helpers/fixture.ts";
import { assertProblem, call, expectStatus } from "../helpers/http.ts";
import { createPrice, createTestKyc } from "../helpers/prices.ts";

// Counts stop at 25 here, so 30 prices are past the cap and a handful are not.
const COUNT_CAP = 25;
const PRICES = 30;

/** Ids of the owner's app's prices, newest first: the list's own order. */
let newestFirst: string[];

const fx = useTestApp(
  { LIST_COUNT_CAP: String(COUNT_CAP) },
  {
    async setUp() {
      const created: string[] = [];
      for (let i = 0; i < PRICES; i++) {
        created.push(
          (await createPrice(fx.app, fx.tenants.owner.token, fx.tenants.app.id, { name: `Ticket ${i}` })).id,
        );
      }
      newestFirst = created.reverse();
    },
  },
);

/** The `Link` header as rel -> path. */
function linksOf(answer: { headers: Record<string, unknown> }): Record<string, string> {
  const links: Record<string, string> = {};
  for (const part of String(answer.headers.link).split(", ")) {
    const match = /^<([^>]+)>; rel="(\w+)"$/.exec(part);
    assert.ok(match, `a well-formed link: ${part}`);
    links[match[2]] = match[1];
  }
  return links;
}

const list = (path: string) => call(fx.app, "GET", path, { token: fx.tenants.owner.token });

describe("cursor paging (starting_after, ending_before)", () => {
  test("walking by starting_after sees every record once, in order, through the Link next cursor", async () => {
    const seen: string[] = [];
    let path: string | undefined = `/prices/${fx.tenants.app.id}?limit=7`;
    let pages = 0;
    while (path) {
      const answer = await list(path);
      const items = expectStatus(answer, 200) as { id: string }[];
      assert.ok(items.length <= 7);
      seen.push(...items.map((p) => p.id));
      const next: string | undefined = linksOf(answer).next;
      if (pages === 0) {
        // The first page is by number, so its next link is too; from there on the walk is by cursor.
        assert.match(String(next), /page=2/);
        path = `/prices/${fx.tenants.app.id}?limit=7&starting_after=${items.at(-1)?.id}`;
      } else {
        if (next) {
          const url = new URL(next, "http://x");
          assert.equal(url.searchParams.get("starting_after"), items.at(-1)?.id, "next carries the cursor");
          assert.equal(url.searchParams.get("page"), null);
        }
        path = next;
      }
      pages++;
    }
    assert.equal(pages, 5);
    assert.deepEqual(seen, newestFirst);
  });

  test("ending_before walks back, and prev and next cursors frame the page", async () => {
    const answer = await list(`/prices/${fx.tenants.app.id}?limit=7&ending_before=${newestFirst[14]}`);
    const items = expectStatus(answer, 200) as { id: string }[];
    assert.deepEqual(
      items.map((p) => p.id),
      newestFirst.slice(7, 14),
    );
    const links = linksOf(answer);
    assert.match(links.next, new RegExp(`starting_after=${newestFirst[13]}`));
    assert.match(links.prev, new RegExp(`ending_before=${newestFirst[7]}`));
    const start = await list(`/prices/${fx.tenants.app.id}?limit=7&ending_before=${newestFirst[3]}`);
    assert.deepEqual(
      (expectStatus(start, 200) as { id: string }[]).map((p) => p.id),
      newestFirst.slice(0, 3),
    );
    assert.equal(linksOf(start).prev, undefined, "nothing comes before the newest record");
  });

  test("the last cursor page has no next link, and an empty page follows the oldest record", async () => {
    const tail = await list(`/prices/${fx.tenants.app.id}?limit=7&starting_after=${newestFirst[22]}`);
    assert.deepEqual(
      (expectStatus(tail, 200) as { id: string }[]).map((p) => p.id),
      newestFirst.slice(23),
    );
    assert.equal(linksOf(tail).next, undefined);
    const past = await list(`/prices/${fx.tenants.app.id}?starting_after=${newestFirst.at(-1)}`);
    assert.deepEqual(expectStatus(past, 200), []);
  });

  test("an unknown id, another app's record, or a cursor with page > 1 is 400 naming the field", async () => {
    const unknown = assertProblem(
      await list(`/prices/${fx.tenants.app.id}?starting_after=price_nope`),
      400,
      "validation_failed",
    );
    assert.equal(unknown.errors[0].path, "/query/starting_after");
    const theirs = await createPrice(fx.app, fx.tenants.outsider.token, fx.tenants.otherApp.id);
    const foreign = assertProblem(
      await list(`/prices/${fx.tenants.app.id}?starting_after=${theirs.id}`),
      400,
      "validation_failed",
    );
    assert.equal(foreign.errors[0].path, "/query/starting_after");
    assert.doesNotMatch(JSON.stringify(foreign), /Ticket|Concert/, "nothing of the other record is told");
    const mixed = assertProblem(
      await list(`/prices/${fx.tenants.app.id}?page=2&starting_after=${newestFirst[0]}`),
      400,
      "validation_failed",
    );
    assert.equal(mixed.errors[0].path, "/query/starting_after");
    const both = await list(
      `/prices/${fx.tenants.app.id}?starting_after=${newestFirst[0]}&ending_before=${newestFirst[5]}`,
    );
    assertProblem(both, 400, "validation_failed");
    const before = assertProblem(
      await list(`/prices/${fx.tenants.app.id}?ending_before=nope`),
      400,
      "validation_failed",
    );
    assert.equal(before.errors[0].path, "/query/ending_before");
  });

  test("KYC lists keep their {data} envelope and page by cursor too", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push((await createTestKyc(fx.app, fx.tenants.owner.token, fx.tenants.app.id, `seller-${i}`)).id);
    const answer = await list(`/apps/${fx.tenants.app.id}/kycs?limit=1&starting_after=${ids[2]}`);
    const body = expectStatus(answer, 200) as { data: { id: string }[] };
    assert.deepEqual(
      body.data.map((k) => k.id),
      [ids[1]],
    );
    assert.match(linksOf(answer).next, new RegExp(`starting_after=${ids[1]}`));
  });
});

describe("X-Total-Count past LIST_COUNT_CAP", () => {
  test("a list longer than the cap says so: the cap, X-Total-Count-Capped, no last link", async () => {
    const first = await list(`/prices/${fx.tenants.app.id}?limit=7`);
    expectStatus(first, 200);
    assert.equal(first.headers["x-total-count"], String(COUNT_CAP));
    assert.equal(first.headers["x-total-count-capped"], "true");
    const links = linksOf(first);
    assert.equal(links.last, undefined);
    assert.match(links.next, /page=2/);
    // Paging by number still reaches the end, past the cap, and stops there.
    const end = await list(`/prices/${fx.tenants.app.id}?limit=7&page=5`);
    assert.deepEqual(
      (expectStatus(end, 200) as { id: string }[]).map((p) => p.id),
      newestFirst.slice(28),
    );
    assert.equal(linksOf(end).next, undefined);
  });

  test("a list within the cap keeps its exact count and last link, with no capped header", async () => {
    await createPrice(fx.app, fx.tenants.outsider.token, fx.tenants.otherApp.id);
    const answer = await call(fx.app, "GET", `/prices/${fx.tenants.otherApp.id}?limit=1`, {
      token: fx.tenants.outsider.token,
    });
    expectStatus(answer, 200);
    const all = expectStatus(
      await call(fx.app, "GET", `/prices/${fx.tenants.otherApp.id}?limit=100`, {
        token: fx.tenants.outsider.token,
      }),
      200,
    );
    assert.ok(all.length >= 1 && all.length < COUNT_CAP);
    assert.equal(answer.headers["x-total-count"], String(all.length));
    assert.equal(answer.headers["x-total-count-capped"], undefined);
    assert.match(linksOf(answer).last, new RegExp(`page=${all.length}`));
  });
});
