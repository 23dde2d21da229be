import type { Server } from "./server.ts";

/** Text made safe for HTML content and attribute values. */
export const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );

/** JSON for a `<script type="application/json">` block: `<` escaped so a value cannot close it. */
export const jsonForScript = (value: unknown) => JSON.stringify(value).replace(/</g, "\\u003c");

/**
 * Serves one of the hosted pages' scripts at `url`. The pages load it with their per-response
 * nonce, so their Content-Security-Policy stays nonce-only; the script itself is the same for
 * everyone and may be cached for a few minutes.
 */
export function serveScript(app: Server, url: string, source: string) {
  app.get(url, { config: { public: true }, schema: { hide: true } }, async (_request, reply) =>
    reply
      .type("text/javascript; charset=utf-8")
      .header("x-content-type-options", "nosniff")
      .header("cache-control", "public, max-age=300")
      .send(source),
  );
}
