// An app's face on the hosted pages: display name, accent colour and icon, through the public API.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { Client } from "../../sdk/src/index.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { assertProblem, call, createApp, expectStatus, signup } from "../helpers/http.ts";
import { getBytes, JPEG, png, SVG, uploadIcon, WEBP } from "../helpers/images.ts";

const fx = useTestApp();

const patch = (token: string, appId: string, body: unknown) =>
  call(fx.app, "PATCH", `/apps/${appId}`, { token, body });

async function auditActions(token: string, appId: string): Promise<string[]> {
  const log = expectStatus(await call(fx.app, "GET", `/apps/${appId}/audit-log`, { token }), 200);
  return log.map((event: { action: string }) => event.action);
}

describe("display name and accent colour", () => {
  test("are null at first, set by PATCH (colour kept in lower case), answered on every read, cleared by null", async () => {
    const { token } = await signup(fx.app);
    const app = await createApp(fx.app, token, { name: "Internal name" });
    assert.equal(app.display_name, null);
    assert.equal(app.accent_color, null);
    assert.equal(app.icon_url, null);
    const before = (await auditActions(token, app.id)).length;

    const changed = expectStatus(
      await patch(token, app.id, { display_name: "  Ada's Pottery  ", accent_color: "#0B7A75" }),
      200,
    );
    assert.equal(changed.display_name, "Ada's Pottery", "trimmed");
    assert.equal(changed.accent_color, "#0b7a75");
    assert.equal(changed.name, "Internal name", "the name itself is unchanged");
    const read = expectStatus(await call(fx.app, "GET", `/apps/${app.id}`, { token }), 200);
    assert.equal(read.display_name, "Ada's Pottery");
    assert.equal(read.accent_color, "#0b7a75");
    const listed = expectStatus(await call(fx.app, "GET", "/apps", { token }), 200);
    assert.equal(listed.find((a: { id: string }) => a.id === app.id).accent_color, "#0b7a75");
    assert.equal((await auditActions(token, app.id)).length, before + 1);
    assert.equal((await auditActions(token, app.id))[0], "app.update");

    const cleared = expectStatus(await patch(token, app.id, { display_name: null, accent_color: null }), 200);
    assert.equal(cleared.display_name, null);
    assert.equal(cleared.accent_color, null);
  });

  test("bad values are 400 naming the field", async () => {
    const { owner, app } = fx.tenants;
    const cases: [Record<string, unknown>, string][] = [
      [{ display_name: "" }, "/body/display_name"],
      [{ display_name: "   " }, "/body/display_name"],
      [{ display_name: "x".repeat(81) }, "/body/display_name"],
      [{ display_name: 7 }, "/body/display_name"],
      [{ accent_color: "red" }, "/body/accent_color"],
      [{ accent_color: "#12345" }, "/body/accent_color"],
      [{ accent_color: "#1234567" }, "/body/accent_color"],
      [{ accent_color: "#12345g" }, "/body/accent_color"],
      [{ accent_color: "#fff;}body{background:url(//evil)" }, "/body/accent_color"],
      [{ icon_url: "https://evil.example/logo.svg" }, "/body/icon_url"],
    ];
    for (const [body, path] of cases) {
      const problem = assertProblem(await patch(owner.token, app.id, body), 400, "validation_failed");
      assert.ok(
        problem.errors.some((e: { path: string }) => e.path === path),
        `${JSON.stringify(body)}: ${JSON.stringify(problem.errors)}`,
      );
    }
    assert.equal(
      expectStatus(await patch(owner.token, app.id, { display_name: "x".repeat(80) }), 200).display_name
        .length,
      80,
    );
  });

  test("another app's caller gets 404; a developer may set them (edit role)", async () => {
    const { owner, developer, outsider, app } = fx.tenants;
    assertProblem(await patch(outsider.token, app.id, { accent_color: "#000000" }), 404, "not_found");
    const byDeveloper = expectStatus(await patch(developer.token, app.id, { accent_color: "#112233" }), 200);
    assert.equal(byDeveloper.accent_color, "#112233");
    expectStatus(await patch(owner.token, app.id, { accent_color: null }), 200);
  });
});

describe("the icon", () => {
  test("a PNG upload answers the App with a versioned icon_url; the public GET serves it under a strict policy", async () => {
    const { token } = await signup(fx.app);
    const app = await createApp(fx.app, token);
    const image = png();
    const uploaded = expectStatus(await uploadIcon(fx.app, token, app.id, "image/png", image), 200);
    const base = fx.app.deps.config.publicUrl;
    assert.equal(uploaded.icon_url, `${base}/apps/${app.id}/icon?v=1`);
    assert.equal(uploaded.id, app.id);
    assert.deepEqual(await auditActions(token, app.id), ["app.update", "app.create"]);

    const served = await getBytes(fx.app, `/apps/${app.id}/icon?v=1`);
    assert.equal(served.status, 200);
    assert.ok(served.bytes.equals(image), "the same bytes");
    assert.equal(served.headers["content-type"], "image/png");
    assert.equal(served.headers["x-content-type-options"], "nosniff");
    assert.equal(served.headers["content-security-policy"], "default-src 'none'; sandbox");
    assert.equal(served.headers["cross-origin-resource-policy"], "same-origin");
    assert.equal(served.headers["cache-control"], "public, max-age=31536000, immutable");
    const unversioned = await getBytes(fx.app, `/apps/${app.id}/icon`);
    assert.equal(unversioned.status, 200);
    assert.equal(unversioned.headers["cache-control"], "no-cache", "an old or bare URL asks again");

    // A new icon is a new URL; JPEG and WebP are served as what they are.
    const jpeg = expectStatus(await uploadIcon(fx.app, token, app.id, "image/jpeg", JPEG), 200);
    assert.equal(jpeg.icon_url, `${base}/apps/${app.id}/icon?v=2`);
    assert.equal((await getBytes(fx.app, `/apps/${app.id}/icon?v=2`)).headers["content-type"], "image/jpeg");
    const webp = expectStatus(
      await uploadIcon(fx.app, token, app.id, "image/webp; charset=binary", WEBP),
      200,
    );
    assert.equal(webp.icon_url, `${base}/apps/${app.id}/icon?v=3`);
    const servedWebp = await getBytes(fx.app, `/apps/${app.id}/icon?v=1`);
    assert.equal(servedWebp.headers["content-type"], "image/webp");
    assert.equal(servedWebp.headers["cache-control"], "no-cache", "v=1 is no longer this icon");
    assert.ok(servedWebp.bytes.equals(WEBP));
  });

  test("refused: bytes that are not the declared type (400), more than 256 KB (413), SVG and other types (415)", async () => {
    const { owner, app } = fx.tenants;
    const notPng = assertProblem(
      await uploadIcon(fx.app, owner.token, app.id, "image/png", JPEG),
      400,
      "validation_failed",
    );
    assert.equal(notPng.errors[0].path, "/body");
    assert.match(notPng.errors[0].message, /not a PNG image/);
    // An SVG declared as a PNG is caught by its first bytes too.
    assertProblem(await uploadIcon(fx.app, owner.token, app.id, "image/png", SVG), 400, "validation_failed");
    const empty = assertProblem(
      await uploadIcon(fx.app, owner.token, app.id, "image/png", Buffer.alloc(0)),
      400,
      "validation_failed",
    );
    assert.equal(empty.errors[0].path, "/body");

    const big = Buffer.concat([png(), Buffer.alloc(256 * 1024)]);
    const tooBig = assertProblem(
      await uploadIcon(fx.app, owner.token, app.id, "image/png", big),
      413,
      "payload_too_large",
    );
    assert.equal(tooBig.errors[0].path, "/body");
    assert.match(tooBig.detail, /262144 bytes/);
    const justFits = Buffer.concat([png(), Buffer.alloc(256 * 1024 - png().length)]);
    expectStatus(await uploadIcon(fx.app, owner.token, app.id, "image/png", justFits), 200);

    const svg = assertProblem(
      await uploadIcon(fx.app, owner.token, app.id, "image/svg+xml", SVG),
      415,
      "unsupported_media_type",
    );
    assert.equal(svg.errors[0].path, "/headers/content-type");
    assert.match(svg.errors[0].message, /SVG/);
    for (const type of ["image/gif", "text/html", "application/json", "application/octet-stream"]) {
      const other = assertProblem(
        await uploadIcon(fx.app, owner.token, app.id, type, png()),
        415,
        "unsupported_media_type",
      );
      assert.equal(other.errors[0].path, "/headers/content-type", type);
    }
    // Nothing refused replaced the icon that fitted.
    const served = await getBytes(fx.app, `/apps/${app.id}/icon`);
    assert.ok(served.bytes.equals(justFits));
  });

  test("DELETE removes it (204, again 204): the GET is 404 and icon_url null; a new upload gets a new version", async () => {
    const { token } = await signup(fx.app);
    const app = await createApp(fx.app, token);
    expectStatus(await uploadIcon(fx.app, token, app.id, "image/png", png()), 200);
    expectStatus(await call(fx.app, "DELETE", `/apps/${app.id}/icon`, { token }), 204);
    expectStatus(await call(fx.app, "DELETE", `/apps/${app.id}/icon`, { token }), 204);
    assertProblem(await call(fx.app, "GET", `/apps/${app.id}/icon?v=1`), 404, "not_found");
    assert.equal(expectStatus(await call(fx.app, "GET", `/apps/${app.id}`, { token }), 200).icon_url, null);
    assert.deepEqual(await auditActions(token, app.id), ["app.update", "app.update", "app.create"]);
    const again = expectStatus(await uploadIcon(fx.app, token, app.id, "image/png", png()), 200);
    assert.match(again.icon_url, /\/icon\?v=3$/, "never a URL an old icon was cached under");
  });

  test("another app's caller gets 404 whatever they send; no credential is 401; an unknown app's icon is 404", async () => {
    const { owner, outsider, app } = fx.tenants;
    expectStatus(await uploadIcon(fx.app, owner.token, app.id, "image/png", png()), 200);
    for (const [type, bytes] of [
      ["image/png", png()],
      ["image/svg+xml", SVG],
    ] as const) {
      assertProblem(await uploadIcon(fx.app, outsider.token, app.id, type, bytes), 404, "not_found");
    }
    assertProblem(
      await call(fx.app, "DELETE", `/apps/${app.id}/icon`, { token: outsider.token }),
      404,
      "not_found",
    );
    assertProblem(await uploadIcon(fx.app, undefined, app.id, "image/png", png()), 401, "unauthenticated");
    assert.equal(
      (await getBytes(fx.app, `/apps/${app.id}/icon`)).status,
      200,
      "the owner's icon is still there",
    );
    assertProblem(await call(fx.app, "GET", "/apps/app_unknown/icon"), 404, "not_found");
  });

  test("the SDK uploads and removes it", async () => {
    const { token } = await signup(fx.app);
    const app = await createApp(fx.app, token);
    // The SDK's fetch, answered by the app in-process.
    const client = new Client({
      baseUrl: "http://sdk.test",
      token,
      fetch: async (input, init) => {
        const url = new URL(String(input));
        const given = init?.body;
        const body =
          given instanceof Blob
            ? Buffer.from(await given.arrayBuffer())
            : given instanceof Uint8Array
              ? Buffer.from(given)
              : (given as string | null | undefined);
        const answer = await fx.app.app.inject({
          method: init?.method as "PUT",
          url: url.pathname + url.search,
          headers: init?.headers as Record<string, string>,
          payload: body ?? undefined,
        });
        return new Response(answer.statusCode === 204 ? null : answer.body, {
          status: answer.statusCode,
          headers: answer.headers as Record<string, string>,
        });
      },
    });
    const image = png(16);
    const uploaded = await client.apps.uploadIcon(app.id, new Blob([image]), "image/png");
    assert.match(uploaded.icon_url ?? "", /\/icon\?v=1$/);
    assert.ok((await getBytes(fx.app, `/apps/${app.id}/icon`)).bytes.equals(image));
    const bytes = await client.apps.uploadIcon(app.id, new Uint8Array(JPEG), "image/jpeg");
    assert.match(bytes.icon_url ?? "", /\/icon\?v=2$/);
    await client.apps.deleteIcon(app.id);
    assert.equal((await client.apps.get(app.id)).icon_url, null);
  });

  test("the OpenAPI document lists the upload's body and the icon's answer as the three image types", async () => {
    const doc = expectStatus(await call(fx.app, "GET", "/openapi.json"), 200);
    const icon = doc.paths["/apps/{app_id}/icon"];
    const types = ["image/jpeg", "image/png", "image/webp"];
    assert.deepEqual(Object.keys(icon.put.requestBody.content).sort(), types);
    assert.equal(icon.put.requestBody.content["image/png"].schema.format, "binary");
    assert.deepEqual(Object.keys(icon.get.responses["200"].content).sort(), types);
    assert.deepEqual(icon.get.security, [], "no credential");
    assert.ok(doc.components.schemas.App.properties.icon_url);
  });
});
