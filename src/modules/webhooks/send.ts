import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import type { VettedUrl } from "./ssrf.ts";

// Long enough for a receiver that acknowledges first and works later, as the spec asks them to;
// short enough that a hanging receiver does not hold a worker.
const DELIVERY_TIMEOUT_MS = 10_000;
const EXCERPT_CHARS = 256;
// Read no further than this: the answer is only kept as an excerpt.
const MAX_READ_BYTES = 4096;

export interface SendResult {
  statusCode: number | null;
  excerpt: string | null;
  error: string | null;
}

/*
 * Connections are kept open between deliveries (one pool a scheme, as an app's endpoints are few
 * and their receivers usually keep connections alive): a new TCP connection, and for https a new
 * TLS handshake, for every delivery cost the worker and the receiver more than the delivery
 * (docs/webhooks.md, "Connections"). A pooled connection was made to an address vetted when it was
 * made, as every new one is (`pinned` below), so reusing it reaches nothing vetting would refuse.
 * Free connections are unreferenced (they never keep a process alive) and dropped after
 * IDLE_MS or when the receiver closes them.
 */
const IDLE_MS = 30_000;
const agents = {
  "http:": new http.Agent({ keepAlive: true, maxFreeSockets: 64, timeout: IDLE_MS }),
  "https:": new https.Agent({ keepAlive: true, maxFreeSockets: 64, timeout: IDLE_MS }),
};

/**
 * POSTs once to the vetted address (the URL's name is kept for Host and TLS, but the connection
 * goes only to the address that was checked). Redirects are not followed: a 3xx is a failure.
 * A kept connection the receiver closed just as it was reused (reset before any answer) is
 * retried once on a new connection: the receiver never read that request.
 */
export async function send(
  target: VettedUrl,
  headers: Record<string, string>,
  body: string,
  timeoutMs = DELIVERY_TIMEOUT_MS,
): Promise<SendResult> {
  const pooled = agents[target.url.protocol as keyof typeof agents];
  const first = await sendOn(pooled, target, headers, body, timeoutMs);
  if (!first.staleConnection) return first.result;
  return (await sendOn(false, target, headers, body, timeoutMs)).result;
}

function sendOn(
  agent: http.Agent | false,
  target: VettedUrl,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
): Promise<{ result: SendResult; staleConnection: boolean }> {
  const pinned: LookupFunction = (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all) {
      (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [
        { address: target.address, family: target.family },
      ]);
    } else {
      callback(null, target.address, target.family);
    }
  };
  const client = target.url.protocol === "https:" ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    let answered = false;
    const finish = (result: SendResult, staleConnection = false) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ result, staleConnection });
    };
    const request = client.request(
      target.url,
      {
        method: "POST",
        lookup: pinned,
        headers: {
          ...headers,
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
        },
        agent,
      },
      (response) => {
        answered = true;
        const chunks: Buffer[] = [];
        let read = 0;
        response.on("data", (chunk: Buffer) => {
          if (read < MAX_READ_BYTES) chunks.push(chunk);
          read += chunk.length;
          if (read >= MAX_READ_BYTES) response.destroy();
        });
        const done = () =>
          finish({
            statusCode: response.statusCode ?? null,
            excerpt: Buffer.concat(chunks).toString("utf8").slice(0, EXCERPT_CHARS) || null,
            error: null,
          });
        response.on("end", done);
        response.on("close", done);
        response.on("error", done);
      },
    );
    const timer = setTimeout(() => {
      request.destroy();
      finish({ statusCode: null, excerpt: null, error: `no answer within ${timeoutMs} ms` });
    }, timeoutMs);
    request.on("error", (error: NodeJS.ErrnoException) => {
      const stale =
        request.reusedSocket && !answered && (error.code === "ECONNRESET" || error.code === "EPIPE");
      finish({ statusCode: null, excerpt: null, error: error.message }, stale);
    });
    request.end(body);
  });
}
