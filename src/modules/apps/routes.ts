import { Type } from "typebox";
import type { Deps } from "../../deps.ts";
import { AppParams } from "../../platform/http/params.ts";
import * as route from "../../platform/http/routes.ts";
import type { Server } from "../../platform/http/server.ts";
import { deleteIcon, ICON_MAX_BYTES, ICON_TYPES, readIcon, setIcon } from "./icon.ts";
import { App, CreateAppBody, UpdateAppBody } from "./schemas.ts";
import * as apps from "./service.ts";

const tags = ["apps"];

export async function appRoutes(app: Server, deps: Deps) {
  route.created(
    app,
    "/apps",
    {
      operationId: "createApp",
      tags,
      summary: "Create an app; the caller becomes its owner",
      body: CreateAppBody,
      resource: App,
    },
    (request) => apps.createApp(deps, request.actor, request.body),
  );

  route.list(
    app,
    "/apps",
    {
      operationId: "listApps",
      tags,
      summary: "Apps the caller is a member of",
      item: App,
      answer: "Apps, newest first",
    },
    (request, page) => apps.listApps(deps, request.actor, page),
  );

  route.get(
    app,
    "/apps/:app_id",
    { operationId: "getApp", tags, summary: "One app", params: AppParams, resource: App },
    (request) => apps.getApp(deps, request.actor, request.params.app_id),
  );

  route.update(
    app,
    "/apps/:app_id",
    {
      operationId: "updateApp",
      tags,
      summary: "Change an app's settings",
      description:
        "Changes an app's settings; absent fields stay. A new `app_fee` applies to payments created from " +
        "now on (each payment keeps the fees it was created with). Only an owner who has two-factor on may " +
        "set `require_two_factor`. " +
        "`display_name` and `accent_color` are what shoppers see on the hosted pages (checkout, auction, " +
        "KYC widget, invitation): the name shown instead of `name`, and the colour of buttons and links, " +
        "with white or dark text on it, whichever reads (docs/payments.md, Hosted pages). The icon is " +
        "uploaded apart: `PUT /apps/{app_id}/icon`.",
      params: AppParams,
      body: UpdateAppBody,
      resource: App,
    },
    (request) => apps.updateApp(deps, request.actor, request.params.app_id, request.body),
  );

  route.noContent(
    app,
    "/apps/:app_id",
    {
      operationId: "deleteApp",
      tags,
      summary: "Delete an app (owner only); 409 naming what is open while money is in flight",
      description:
        "Refused (409, counts per kind in the problem's `open`) while payments are pending, processing, " +
        "on hold, failed-captured or failed-transfers, or bids are on hold. Its payments and their " +
        "events are kept; every read of the app is 404 afterwards (docs/payments.md, Deleting an app).",
      params: AppParams,
    },
    (request) => apps.deleteApp(deps, request.actor, request.params.app_id),
  );

  await iconRoutes(app, deps);
}

const ICON_LIMIT = `${ICON_MAX_BYTES / 1024} KB`;
// The icon is served under its own strict policy: an image, never a document that could run script.
const ICON_POLICY = "default-src 'none'; sandbox";

/** The app's icon: uploaded as bytes, removed, and served to the hosted pages (docs/payments.md). */
async function iconRoutes(app: Server, deps: Deps) {
  // The upload's body is the image itself: a parser of its own, for this route's scope only. Any
  // declared type reaches the service, which names what it accepts (415) rather than a JSON body.
  await app.register(async (scope) => {
    const upload = scope as unknown as Server;
    const bytes = (_request: unknown, body: Buffer | string, done: (error: null, body: unknown) => void) =>
      done(null, body);
    upload.addContentTypeParser("*", { parseAs: "buffer" }, bytes);
    // Preferred to the server's JSON parser in this scope, so JSON gets the same 415 as every other type.
    upload.addContentTypeParser("application/json", { parseAs: "buffer" }, bytes);
    upload.put(
      "/apps/:app_id/icon",
      {
        config: {
          rawBody: {
            types: ICON_TYPES,
            description: `The image's bytes, at most ${ICON_LIMIT}, with its type in Content-Type`,
          },
        },
        schema: {
          operationId: "uploadAppIcon",
          tags,
          summary: "Upload the app's icon (PNG, JPEG or WebP), shown on the hosted pages",
          description:
            `The body is the image itself, at most ${ICON_LIMIT} (413 beyond), its Content-Type one of ` +
            "image/png, image/jpeg or image/webp (415 for any other, SVG included: it can carry script); " +
            "400 when the bytes are not the image the type says. Replaces any earlier icon; the answer's " +
            "`icon_url` carries a new version.",
          params: AppParams,
          response: { 200: App },
        },
      },
      async (request) =>
        setIcon(deps, request.actor, request.params.app_id, request.headers["content-type"], request.body),
    );
  });

  route.noContent(
    app,
    "/apps/:app_id/icon",
    {
      operationId: "deleteAppIcon",
      tags,
      summary: "Remove the app's icon: the hosted pages show its name alone",
      params: AppParams,
    },
    (request) => deleteIcon(deps, request.actor, request.params.app_id),
  );

  const image = { type: "string", format: "binary", description: "The icon's bytes" };
  app.get(
    "/apps/:app_id/icon",
    {
      config: { public: true },
      schema: {
        operationId: "getAppIcon",
        tags,
        summary: "The app's icon (no credential: the hosted pages show it); 404 when it has none",
        description:
          "Served with the type its bytes were checked to be, `x-content-type-options: nosniff`, " +
          "`content-security-policy: default-src 'none'; sandbox` and `cross-origin-resource-policy: " +
          "same-origin`. Cached for good when `v` is the current version (the App's `icon_url`), else revalidated.",
        params: AppParams,
        querystring: Type.Object({
          v: Type.Optional(
            Type.String({ maxLength: 20, description: "The icon's version, from `icon_url`" }),
          ),
        }),
        response: {
          200: {
            description: "The icon",
            content: Object.fromEntries(ICON_TYPES.map((type) => [type, { schema: image }])),
          },
        },
      },
    },
    async (request, reply) => {
      const icon = await readIcon(deps, request.params.app_id);
      // A versioned URL never changes what it answers; an unversioned or stale one asks again.
      const current = request.query.v === String(icon.version);
      return reply
        .type(icon.type)
        .header("x-content-type-options", "nosniff")
        .header("content-security-policy", ICON_POLICY)
        .header("cross-origin-resource-policy", "same-origin")
        .header("cache-control", current ? "public, max-age=31536000, immutable" : "no-cache")
        .send(icon.content);
    },
  );
}
