import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { describe, it } from "node:test";
import { eq } from "drizzle-orm";
import { creationContext } from "../../src/modules/solana/job-names.ts";
import { solanaTrees } from "../../src/modules/solana/tables.ts";
import { envelopeOf } from "../../src/modules/wallets/secrets.ts";
import { treeCost } from "../../src/platform/chains/solana-trees.ts";
import { solanaSigner } from "../../src/platform/chains/solana-tx.ts";
import { checkRouteBasics, eventually } from "../helpers/contract.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { assertProblem, call, expectStatus } from "../helpers/http.ts";
import { compressionUrl, solanaFixture } from "../helpers/solana-compression.ts";

let tenant: Awaited<ReturnType<typeof solanaFixture>>;
let trees: string;
let collections: string;
const treeBody = { max_depth_size_pair: { max_depth: 14, max_buffer_size: 64 }, canopy_depth: 10 };
const collectionBody = { name: "My collection", symbol: "MYC", uri: "https://example.com/c.json" };

// One block of 0.2 s is final: a created tree confirms within a couple of seconds.
const fx = useTestApp(
  { SOLANA_TESTNET_CONFIRMATIONS: "1", SOLANA_TESTNET_BLOCK_SECONDS: "0.2" },
  {
    tenants: false,
    async setUp() {
      tenant = await solanaFixture(fx.app);
      trees = compressionUrl(tenant.app.id, tenant.solanaWallet, "trees");
      collections = compressionUrl(tenant.app.id, tenant.solanaWallet, "collections");
    },
  },
);

const fetchOne = async (url: string, id: string) => {
  const list = expectStatus(await call(fx.app, "GET", url, { token: tenant.owner.token }), 200);
  return list.find((r: { id: string }) => r.id === id);
};

describe("Solana trees", () => {
  it("creates a tree pending, with its size and rent; the job sends it and it confirms", async () => {
    const tree = expectStatus(
      await call(fx.app, "POST", trees, { token: tenant.developer.token, body: treeBody }),
      201,
    );
    const cost = treeCost(14, 64, 10);
    assert.equal(tree.status, "pending");
    assert.equal(tree.tx_signature, "");
    assert.equal(tree.error, null);
    assert.match(tree.address, /^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
    assert.deepEqual(
      [tree.max_depth, tree.max_buffer_size, tree.canopy_depth, tree.account_size, tree.rent_lamports],
      [14, 64, 10, cost.space, cost.lamports.toString()],
    );
    const done = await eventually(async () => {
      const row = await fetchOne(trees, tree.id);
      return row?.status === "confirmed" ? row : undefined;
    });
    assert.match(done.tx_signature, /^[1-9A-HJ-NP-Za-km-z]{64,88}$/);
    assert.equal(done.address, tree.address);
    assert.ok(Date.parse(done.updated_at) >= Date.parse(tree.updated_at));
    // The tree's secret key is kept sealed: never answered, never logged.
    const [row] = await fx.app.deps.db.select().from(solanaTrees).where(eq(solanaTrees.id, tree.id));
    const secret = fx.app.deps.custody.open(creationContext("tree", tree.id), envelopeOf(row));
    assert.equal((await solanaSigner(secret)).address, tree.address);
    for (const text of [...fx.app.logs, JSON.stringify(done), JSON.stringify(tree)])
      assert.ok(!text.includes(secret));
  });

  it("records a failed transaction with its reason, and resends a dropped one with the same account", async () => {
    fx.app.deps.chains.sandbox.nextOutcome("revert");
    const reverted = expectStatus(
      await call(fx.app, "POST", trees, { token: tenant.owner.token, body: treeBody }),
      201,
    );
    const failed = await eventually(async () => {
      const row = await fetchOne(trees, reverted.id);
      return row?.status === "failed" ? row : undefined;
    });
    assert.match(failed.error, /sandbox:revert/);
    assert.notEqual(failed.tx_signature, "");

    fx.app.deps.chains.sandbox.nextOutcome("drop");
    const dropped = expectStatus(
      await call(fx.app, "POST", trees, { token: tenant.owner.token, body: treeBody }),
      201,
    );
    const first = await eventually(
      async () => (await fetchOne(trees, dropped.id))?.tx_signature || undefined,
    );
    const done = await eventually(async () => {
      const row = await fetchOne(trees, dropped.id);
      return row?.status === "confirmed" ? row : undefined;
    });
    assert.notEqual(done.tx_signature, first, "sent again as a new transaction");
    assert.equal(done.address, dropped.address, "for the same tree account");
  });

  it("refuses invalid pairs and canopies, naming the field", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [
        { max_depth_size_pair: { max_depth: 14, max_buffer_size: 63 }, canopy_depth: 0 },
        "/body/max_depth_size_pair",
      ],
      [{ max_depth_size_pair: { max_depth: 3, max_buffer_size: 8 }, canopy_depth: 3 }, "/body/canopy_depth"],
      // Proofs of 30 nodes do not fit a transaction.
      [
        { max_depth_size_pair: { max_depth: 30, max_buffer_size: 512 }, canopy_depth: 0 },
        "/body/canopy_depth",
      ],
      // A canopy of 2^25 nodes is far above Solana's 10 MiB account limit.
      [
        { max_depth_size_pair: { max_depth: 30, max_buffer_size: 512 }, canopy_depth: 24 },
        "/body/canopy_depth",
      ],
      [
        { max_depth_size_pair: { max_depth: 14, max_buffer_size: 64 }, canopy_depth: -1 },
        "/body/canopy_depth",
      ],
      [
        { max_depth_size_pair: { max_depth: 14 }, canopy_depth: 0 },
        "/body/max_depth_size_pair/max_buffer_size",
      ],
      [{ canopy_depth: 0 }, "/body/max_depth_size_pair"],
    ];
    for (const [body, path] of cases) {
      const problem = assertProblem(
        await call(fx.app, "POST", trees, { token: tenant.owner.token, body }),
        400,
        "validation_failed",
      );
      assert.ok(
        problem.errors.some((e: { path: string }) => e.path === path),
        `${JSON.stringify(body)} names ${path}: ${JSON.stringify(problem.errors)}`,
      );
    }
  });

  it("is 404 for another tenant's app or wallet and for a wallet of another chain", async () => {
    const urls = [
      compressionUrl(tenant.otherApp.id, tenant.otherSolanaWallet, "trees"),
      compressionUrl(tenant.app.id, tenant.otherSolanaWallet, "trees"),
      compressionUrl(tenant.app.id, tenant.evmWallet, "trees"),
      compressionUrl(tenant.app.id, "wal_missing", "trees"),
    ];
    for (const url of urls) {
      assertProblem(
        await call(fx.app, "POST", url, { token: tenant.owner.token, body: treeBody }),
        404,
        "not_found",
      );
      assertProblem(await call(fx.app, "GET", url, { token: tenant.owner.token }), 404, "not_found");
    }
    assertProblem(await call(fx.app, "GET", trees, { token: tenant.outsider.token }), 404, "not_found");
  });

  it("accepts the app's API key; another app's key finds nothing", async () => {
    const key = async (token: string, appId: string) =>
      expectStatus(
        await call(fx.app, "POST", `/apps/${appId}/api-keys`, { token, body: { name: "server" } }),
        201,
      ).key as string;
    const own = await key(tenant.owner.token, tenant.app.id);
    const other = await key(tenant.outsider.token, tenant.otherApp.id);
    expectStatus(await call(fx.app, "GET", trees, { token: own }), 200);
    assertProblem(await call(fx.app, "GET", trees, { token: other }), 404, "not_found");
  });

  it("lists with paging headers and passes the route basics", async () => {
    expectStatus(await call(fx.app, "POST", trees, { token: tenant.owner.token, body: treeBody }), 201);
    const page = await call(fx.app, "GET", `${trees}?page=2&limit=1`, { token: tenant.owner.token });
    expectStatus(page, 200);
    assert.equal(page.body.length, 1);
    assert.equal(page.headers["x-total-count"], "4");
    assert.match(String(page.headers.link), /rel="first"/);
    await checkRouteBasics(fx.app, { method: "POST", url: trees, body: treeBody, token: tenant.owner.token });
    await checkRouteBasics(fx.app, { method: "GET", url: trees, token: tenant.owner.token, list: true });
  });
});

describe("Solana collections", () => {
  it("creates a collection with its accounts known at once; the job sends it and it confirms", async () => {
    const created = expectStatus(
      await call(fx.app, "POST", collections, { token: tenant.owner.token, body: collectionBody }),
      201,
    );
    assert.equal(created.status, "pending");
    assert.equal(created.tx_signature, "");
    assert.equal(created.name, "My collection");
    for (const field of [
      "mint_address",
      "token_account_address",
      "metadata_account_address",
      "master_edition_account_address",
    ]) {
      assert.match(created[field], /^[1-9A-HJ-NP-Za-km-z]{32,44}$/, field);
    }
    const done = await eventually(async () => {
      const row = await fetchOne(collections, created.id);
      return row?.status === "confirmed" ? row : undefined;
    });
    assert.notEqual(done.tx_signature, "");
    assert.equal(done.mint_address, created.mint_address);
  });

  it("refuses names, symbols and uris over Token Metadata's byte limits, naming the field", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ ...collectionBody, name: "é".repeat(17) }, "/body/name"],
      [{ ...collectionBody, symbol: "ééééé€" }, "/body/symbol"],
      [{ ...collectionBody, uri: "" }, "/body/uri"],
      [{ name: "x", symbol: "y" }, "/body/uri"],
    ];
    for (const [body, path] of cases) {
      const problem = assertProblem(
        await call(fx.app, "POST", collections, { token: tenant.owner.token, body }),
        400,
        "validation_failed",
      );
      assert.ok(
        problem.errors.some((e: { path: string }) => e.path === path),
        `${JSON.stringify(body)} names ${path}: ${JSON.stringify(problem.errors)}`,
      );
    }
  });

  it("is 404 for an EVM wallet, passes the route basics and lists", async () => {
    assertProblem(
      await call(fx.app, "POST", compressionUrl(tenant.app.id, tenant.evmWallet, "collections"), {
        token: tenant.owner.token,
        body: collectionBody,
      }),
      404,
      "not_found",
    );
    await checkRouteBasics(fx.app, {
      method: "POST",
      url: collections,
      body: collectionBody,
      token: tenant.owner.token,
    });
    await checkRouteBasics(fx.app, {
      method: "GET",
      url: collections,
      token: tenant.owner.token,
      list: true,
    });
    const list = await call(fx.app, "GET", collections, { token: tenant.developer.token });
    expectStatus(list, 200);
    assert.equal(list.headers["x-total-count"], String(list.body.length));
  });
});

describe("docs/solana.md", () => {
  it("gives the size and rent the service computes", async () => {
    const text = await readFile(new URL("../../docs/solana.md", import.meta.url), "utf8");
    const rows = [...text.matchAll(/^\| (\d+) \| (\d+) \| (\d+) \| [\d,]+ \| ([\d,]+) \| ([\d,]+) \|/gm)];
    assert.ok(rows.length >= 5);
    for (const [, depth, buffer, canopy, size, rent] of rows) {
      const cost = treeCost(Number(depth), Number(buffer), Number(canopy));
      assert.equal(size.replaceAll(",", ""), String(cost.space));
      assert.equal(rent.replaceAll(",", ""), cost.lamports.toString());
    }
  });
});
