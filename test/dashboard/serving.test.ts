import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { gunzipSync } from "node:zlib";
import Fastify from "fastify";
import pino from "pino";
import { dashboardRoutes } from "../../src/dashboard-serving.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { call } from "../helpers/http.ts";

// How the service serves its console: the page for every /dashboard path under a strict CSP with a
// fresh style nonce, hashed assets gzipped and cached, a missing asset 404 (never the page), the
// service's mode for the badge, nothing of it in the API's document; and a missing build is built.
const fx = useTestApp({}, { tenants: false });

const nonceOf = (html: string) => /<meta name="csp-nonce" content="([^"]+)"/.exec(html)?.[1];

test("every /dashboard path is the page, under a CSP whose style nonce is the page's", async () => {
  const first = await call(fx.app, "GET", "/dashboard");
  const deep = await call(fx.app, "GET", "/dashboard/apps/app_123/members?x=1");
  for (const page of [first, deep]) {
    assert.equal(page.status, 200);
    assert.match(String(page.headers["content-type"]), /^text\/html/);
    const policy = String(page.headers["content-security-policy"]);
    const nonce = nonceOf(page.text);
    assert.ok(nonce, "the page carries its nonce");
    assert.ok(policy.includes(`style-src 'self' 'nonce-${nonce}'`), policy);
    assert.ok(policy.includes("script-src 'self'") && !policy.includes("unsafe"), policy);
    assert.ok(policy.includes("frame-ancestors 'none'"), policy);
    assert.equal(page.headers["cache-control"], "no-store");
    assert.doesNotMatch(page.text, /<script(?![^>]*\bsrc=)[^>]*>/, "no inline script");
  }
  assert.notEqual(nonceOf(first.text), nonceOf(deep.text), "a new nonce per response");
});

test("assets are served gzipped and cached for good; a missing one is 404", async () => {
  const page = await call(fx.app, "GET", "/dashboard/");
  const src = /<script[^>]+src="\/dashboard\/([^"]+)"/.exec(page.text)?.[1];
  assert.ok(src, "the page loads its script");
  const plain = await call(fx.app, "GET", `/dashboard/${src}`);
  assert.equal(plain.status, 200);
  assert.match(String(plain.headers["content-type"]), /^text\/javascript/);
  assert.equal(plain.headers["content-encoding"], undefined);
  const zipped = await fx.app.app.inject({
    url: `/dashboard/${src}`,
    headers: { "accept-encoding": "gzip, br" },
  });
  assert.equal(zipped.headers["content-encoding"], "gzip");
  assert.equal(zipped.headers["cache-control"], "public, max-age=31536000, immutable");
  assert.equal(gunzipSync(zipped.rawPayload).toString(), plain.text);

  const missing = await call(fx.app, "GET", "/dashboard/assets/gone-1234.js");
  assert.equal(missing.status, 404);
  assert.doesNotMatch(missing.text, /<html/);
});

test("the console's routes need no credential and stay out of the API's document", async () => {
  const settings = await call(fx.app, "GET", "/dashboard/service.json");
  assert.equal(settings.status, 200);
  assert.deepEqual(settings.body, { mode: "test", name: "Console" });
  const document = await call(fx.app, "GET", "/openapi.json");
  assert.deepEqual(
    Object.keys(document.body.paths).filter((route) => route.startsWith("/dashboard")),
    [],
  );
});

test("a missing build is built at start-up; a live service says so", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "dashboard-dist-"));
  const dist = path.join(dir, "dist");
  try {
    const app = Fastify();
    await dashboardRoutes(app, { sandbox: false, logger: pino({ level: "silent" }), dist });
    assert.ok(existsSync(path.join(dist, "index.html")), "built into place");
    const page = await app.inject({ url: "/dashboard/sign-in" });
    assert.equal(page.statusCode, 200);
    assert.ok(nonceOf(page.body));
    assert.deepEqual((await app.inject({ url: "/dashboard/service.json" })).json(), {
      mode: "live",
      name: "Console",
    });
    await app.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
