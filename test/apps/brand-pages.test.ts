// The app's face (display name, icon, accent colour) on each hosted page, escaped, under a policy
// that lets the icon in and nothing else.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { describe, test } from "node:test";
import { createAuction } from "../helpers/auctions.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { type Answer, call, createApp, expectStatus, signup } from "../helpers/http.ts";
import { png, uploadIcon } from "../helpers/images.ts";
import { createPrice } from "../helpers/prices.ts";

const fx = useTestApp();

const HOSTILE_NAME = `Ada's <script>alert(1)</script> & "Co"`;
const ESCAPED_NAME = "Ada&#39;s &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Co&quot;";

/** An app with a display name full of markup, a teal accent and an icon. */
async function brandedApp() {
  const owner = await signup(fx.app);
  const app = await createApp(fx.app, owner.token, { name: "Internal name" });
  expectStatus(
    await call(fx.app, "PATCH", `/apps/${app.id}`, {
      token: owner.token,
      body: { display_name: HOSTILE_NAME, accent_color: "#0B7A75" },
    }),
    200,
  );
  expectStatus(await uploadIcon(fx.app, owner.token, app.id, "image/png", png()), 200);
  return { owner, app };
}

/** The page shows the brand: header with icon and escaped name, the accent in its style, the icon allowed. */
function assertBranded(page: Answer, appId: string, forShoppers = true) {
  assert.equal(page.status < 500, true, page.text);
  assert.match(String(page.headers["content-type"]), /^text\/html/);
  const header = /<header class="merchant" id="merchant">(.*?)<\/header>/s.exec(page.text)?.[1];
  assert.ok(header, "the merchant header is on the page");
  assert.equal(
    header,
    `<img src="/apps/${appId}/icon?v=1" alt="" width="40" height="40"><span id="merchant-name">${ESCAPED_NAME}</span>`,
  );
  assert.ok(!page.text.includes("<script>alert(1)"), "the name never reaches the page as markup");
  if (forShoppers)
    assert.ok(!page.text.includes("Internal name"), "shoppers see the display name, not the name");
  assert.match(
    page.text,
    /--pb-color-primary:#0b7a75;--pb-color-primary-hover:#[0-9a-f]{6};--pb-color-on-primary:#ffffff/,
  );
  const csp = String(page.headers["content-security-policy"]);
  assert.match(csp, /(^|; )img-src 'self' data:(;|$)/, csp);
  assert.match(csp, /default-src 'none'/);
}

/** The page shows no brand at all (an app that set none shows its name only where it always did). */
function assertPlain(page: Answer) {
  assert.doesNotMatch(page.text, /--pb-color-primary:#0b7a75/);
  assert.doesNotMatch(page.text, /<img src="\/apps\//);
}

describe("the merchant's face on the hosted pages", () => {
  test("checkout, and its 410 page once the price is expired", async () => {
    const { owner, app } = await brandedApp();
    const price = await createPrice(fx.app, owner.token, app.id, { name: "Vase" });
    assertBranded(await call(fx.app, "GET", `/checkout/${price.id}`), app.id);
    expectStatus(
      await call(fx.app, "PATCH", `/prices/${app.id}/${price.id}`, {
        token: owner.token,
        body: { expired: true },
      }),
      200,
    );
    const gone = await call(fx.app, "GET", `/checkout/${price.id}`);
    assert.equal(gone.status, 410);
    assertBranded(gone, app.id);
    // An unknown price has no app to show.
    const unknown = await call(fx.app, "GET", "/checkout/price_unknown");
    assert.equal(unknown.status, 404);
    assert.doesNotMatch(unknown.text, /class="merchant"/);
  });

  test("the auction page", async () => {
    const { owner, app } = await brandedApp();
    const auction = await createAuction(fx.app, owner.token, app.id, { name: "Lot 1" });
    assertBranded(await call(fx.app, "GET", `/a/${auction.id}`), app.id);
  });

  test("the KYC widget, whose style (accent included) is allowed by its hash", async () => {
    const { owner, app } = await brandedApp();
    const kyc = expectStatus(
      await call(fx.app, "POST", `/apps/${app.id}/kycs`, {
        token: owner.token,
        body: { identifier: "seller-1" },
      }),
      201,
    ).data;
    const page = await call(fx.app, "GET", `/kyc/${kyc.edit_token}`);
    assert.equal(page.status, 200);
    assertBranded(page, app.id);
    assert.ok(page.text.includes(`<h1>Get paid by ${ESCAPED_NAME}</h1>`));
    const style = /<style>(.*?)<\/style>/s.exec(page.text)?.[1] ?? "";
    const hash = createHash("sha256").update(style).digest("base64");
    assert.ok(String(page.headers["content-security-policy"]).includes(`style-src 'sha256-${hash}'`));
  });

  test("the invitation page", async () => {
    const { owner, app } = await brandedApp();
    const invited = expectStatus(
      await call(fx.app, "POST", `/members/${app.id}`, {
        token: owner.token,
        body: { email: "brand-invitee@example.com", role: "developer" },
      }),
      201,
    );
    const page = await call(fx.app, "GET", `/invitations/${invited.invite_token}`);
    assert.equal(page.status, 200);
    // The member joins the app by its own name; the header shows the face shoppers see.
    assertBranded(page, app.id, false);
    assert.match(page.text, /<h1>Join <span id="app-name">Internal name<\/span><\/h1>/);
  });

  test("an app without a brand: its own name, the service's colours, no icon", async () => {
    const { owner, app } = fx.tenants;
    const price = await createPrice(fx.app, owner.token, app.id, { name: "Plain" });
    const page = await call(fx.app, "GET", `/checkout/${price.id}`);
    assertPlain(page);
    assert.match(
      page.text,
      /<header class="merchant" id="merchant"><span id="merchant-name">Owner&#39;s app<\/span><\/header>/,
    );
  });

  test("a light accent gets dark text on its buttons, and links in the text colour", async () => {
    const { owner, app } = fx.tenants;
    expectStatus(
      await call(fx.app, "PATCH", `/apps/${app.id}`, {
        token: owner.token,
        body: { accent_color: "#ffd700" },
      }),
      200,
    );
    const auction = await createAuction(fx.app, owner.token, app.id, { name: "Gold" });
    const page = await call(fx.app, "GET", `/a/${auction.id}`);
    assert.match(
      page.text,
      /--pb-color-primary:#ffd700;--pb-color-primary-hover:#[0-9a-f]{6};--pb-color-on-primary:#1d2330/,
    );
    assert.match(page.text, /a,a:hover,button\.link[^{]*\{color:var\(--pb-color-text\)\}/);
    expectStatus(
      await call(fx.app, "PATCH", `/apps/${app.id}`, { token: owner.token, body: { accent_color: null } }),
      200,
    );
  });
});
