import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { TestApp } from "../helpers/app.ts";
import { createAuction, placeBid, shopperSession, waitForBid } from "../helpers/auctions.ts";
import { buildServedApp } from "../helpers/browser.ts";
import { assertProblem, call, expectStatus, tenantFixture } from "../helpers/http.ts";

let t: TestApp;
let base: string;
let f: Awaited<ReturnType<typeof tenantFixture>>;

before(async () => {
  ({ t, base } = await buildServedApp());
  f = await tenantFixture(t);
});
after(() => t.close());

/** Reads server-sent `state` events until `done` says stop; answers the states seen. */
async function readStates(url: string, done: (state: any) => boolean, timeoutMs = 20_000) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const states: any[] = [];
  try {
    const response = await fetch(url, { signal: controller.signal });
    assert.match(String(response.headers.get("content-type")), /^text\/event-stream/);
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    for (;;) {
      const { value, done: ended } = await reader.read();
      if (ended) break;
      buffer += value;
      let cut = buffer.indexOf("\n\n");
      while (cut >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (/^event: state$/m.test(block) && data) {
          states.push(JSON.parse(data));
          if (done(states[states.length - 1])) return states;
        }
        cut = buffer.indexOf("\n\n");
      }
    }
    return states;
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
}

describe("public auction page", () => {
  test("serves HTML with a strict CSP and counts each view", async () => {
    const auction = await createAuction(t, f.owner.token, f.app.id, { name: "<b>Vase</b> & co" });
    const page = await call(t, "GET", `/a/${auction.id}`);
    assert.equal(page.status, 200);
    assert.match(String(page.headers["content-type"]), /^text\/html/);
    const csp = String(page.headers["content-security-policy"]);
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'nonce-[A-Za-z0-9+/=]+'/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|https?:/);
    assert.ok(page.text.includes("&lt;b&gt;Vase&lt;/b&gt; &amp; co"), "the name is escaped");
    assert.ok(!page.text.includes("<b>Vase"));
    assert.doesNotMatch(page.text, /src="http|href="http/, "no external assets");
    await call(t, "GET", `/a/${auction.id}`);
    const read = expectStatus(
      await call(t, "GET", `/auctions/${f.app.id}/${auction.id}`, { token: f.owner.token }),
      200,
    );
    assert.equal(read.views, 2);
    assertProblem(await call(t, "GET", "/a/auc_missing"), 404, "not_found");
    assertProblem(await call(t, "GET", "/a/auc_missing/events"), 404, "not_found");
  });

  test("the event stream sends the state, then each change, without the bidders' addresses", async () => {
    const auction = await createAuction(t, f.owner.token, f.app.id, { amount: 10 });
    const shopper = await shopperSession(t, f.app.id, auction.id, "streamer@example.com");
    const seen = readStates(`${base}/a/${auction.id}/events`, (s) => s.current_amount === 12);
    await new Promise((r) => setTimeout(r, 300));
    const bid = expectStatus(await placeBid(t, shopper.token, f.app.id, auction.id, 12), 202);
    await waitForBid(t, f.owner.token, f.app.id, auction.id, bid.id, "placed");
    const states = await seen;
    assert.equal(states[0].current_amount, null);
    assert.equal(states[0].starting_amount, 10);
    const last = states[states.length - 1];
    assert.equal(last.current_amount, 12);
    assert.equal(last.minimum_bid, 13);
    assert.equal(last.bids[0].bidder, "s***@example.com");
    assert.ok(!JSON.stringify(states).includes("streamer@example.com"));
  });
});
