import assert from "node:assert/strict";
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { TestApp } from "./app.ts";
import { call } from "./http.ts";

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A loopback webhook receiver answering with scripted statuses (the last one repeats). */
export class Receiver {
  readonly received: Received[] = [];
  statuses: number[] = [200];
  responseBody = "ok";
  private server: Server | undefined;
  url = "";

  async start(path = "/hook"): Promise<string> {
    this.server = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk) => {
        body += chunk;
      });
      req.on("end", () => {
        this.received.push({ headers: req.headers, body });
        const status = this.statuses.length > 1 ? this.statuses.shift()! : this.statuses[0];
        res.writeHead(status, { "content-type": "text/plain" });
        res.end(this.responseBody);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}${path}`;
    return this.url;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

/**
 * Standard Webhooks verification written from the spec, independently of the server's code:
 * HMAC-SHA256 over "id.timestamp.body" keyed with the base64 part of the secret; any one of the
 * space-separated `v1,` signatures may match; the timestamp must be recent.
 */
export function verifyStandardWebhook(secret: string, headers: IncomingHttpHeaders, body: string): boolean {
  const id = headers["webhook-id"];
  const timestamp = headers["webhook-timestamp"];
  const signatures = headers["webhook-signature"];
  if (typeof id !== "string" || typeof timestamp !== "string" || typeof signatures !== "string") return false;
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  const key = Buffer.from(secret.split("_")[1], "base64");
  const expected = createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest();
  return signatures.split(" ").some((entry) => {
    const [version, value] = entry.split(",");
    const given = Buffer.from(value ?? "", "base64");
    return version === "v1" && given.length === expected.length && timingSafeEqual(given, expected);
  });
}

/** Polls the delivery log until `predicate` holds for the endpoint's deliveries. */
export async function waitForDeliveries(
  t: TestApp,
  token: string,
  appId: string,
  endpointId: string,
  predicate: (deliveries: any[]) => boolean,
  timeoutMs = 30_000,
): Promise<any[]> {
  const deadline = Date.now() + timeoutMs;
  let last: any[] = [];
  while (Date.now() < deadline) {
    const answer = await call(t, "GET", `/webhooks/${appId}/${endpointId}/deliveries`, { token });
    assert.equal(answer.status, 200, answer.text);
    last = answer.body;
    if (predicate(last)) return last;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  assert.fail(`deliveries never reached the expected state: ${JSON.stringify(last, null, 2)}`);
}
