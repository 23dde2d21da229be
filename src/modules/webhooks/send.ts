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

/**
 * POSTs once to the vetted address (the URL's name is kept for Host and TLS, but the connection
 * goes only to the address that was checked). Redirects are not followed: a 3xx is a failure.
 */
export function send(
  target: VettedUrl,
  headers: Record<string, string>,
  body: string,
  timeoutMs = DELIVERY_TIMEOUT_MS,
): Promise<SendResult> {
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
    const finish = (result: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
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
        agent: false,
      },
      (response) => {
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
    request.on("error", (error) => finish({ statusCode: null, excerpt: null, error: error.message }));
    request.end(body);
  });
}
