// `payments listen --forward-to <URL>`: the app's events, read live from the service's event
// stream, each POSTed to a receiver on this machine signed as the service signs its webhooks
// (Standard Webhooks), with a secret of this CLI's own. A receiver written for the real webhooks
// works unchanged: give it this secret while you develop.
import { randomBytes } from "node:crypto";
import { signTestWebhook } from "@payments-backend/sdk";
import { connection } from "./client.mjs";
import { saveConfig } from "./config.mjs";
import { UsageError } from "./usage-error.mjs";

/** How long a receiver may take to answer one forwarded event. */
const FORWARD_TIMEOUT_MS = 10_000;

/** An event type matched against `--events` patterns: a type, `prefix.*` or `*`. */
function matches(patterns, type) {
  return patterns.some(
    (pattern) =>
      pattern === "*" ||
      pattern === type ||
      (pattern.endsWith(".*") && type.startsWith(pattern.slice(0, -1))),
  );
}

/** `2026-11-26 22:52:07`, local time: when a line happened, as a person reads it. */
function clock() {
  const now = new Date();
  const pad = (n) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())} ${pad(now.getHours())}:${pad(
    now.getMinutes(),
  )}:${pad(now.getSeconds())}`;
}

/** Aborted on ^C or SIGTERM, so the stream ends and the command exits 0. */
function interrupted() {
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  return {
    signal: controller.signal,
    release() {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
    },
  };
}

/** The secret forwarded events are signed with: kept per app once logged in, so it survives restarts. */
async function signingSecret(conn, env) {
  const { config, appId, apiKey } = conn;
  const loggedIn = config.apiKey === apiKey && config.appId === appId;
  if (loggedIn && config.listenSecret) return config.listenSecret;
  const secret = `whsec_${randomBytes(32).toString("base64")}`;
  if (loggedIn) await saveConfig({ ...config, listenSecret: secret }, env);
  return secret;
}

async function forward(target, secret, event, io) {
  const payload = JSON.stringify(event);
  const { headers } = signTestWebhook(payload, secret, { id: event.id });
  const line = `POST ${target.href} [${event.id}]`;
  try {
    const response = await fetch(target, {
      method: "POST",
      headers: { ...headers, "user-agent": "payments-cli" },
      body: payload,
      redirect: "manual",
      signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
    });
    await response.arrayBuffer();
    io.out.write(`${clock()}  <-- [${response.status}] ${line}\n`);
  } catch (error) {
    const cause = /** @type {any} */ (error)?.cause?.code ?? /** @type {Error} */ (error).message;
    io.out.write(`${clock()}  <-- [ERROR] ${line}: ${cause}\n`);
  }
}

export async function listen(values, io) {
  const given = values["forward-to"];
  if (!given) throw new UsageError("listen needs --forward-to <URL>, e.g. http://localhost:4242/hooks");
  let target;
  try {
    target = new URL(given);
  } catch {
    throw new UsageError(`--forward-to is not a URL: ${given}`);
  }
  if (target.protocol !== "http:" && target.protocol !== "https:") {
    throw new UsageError("--forward-to takes an http:// or https:// URL");
  }
  const patterns = (values.events ?? "*")
    .split(",")
    .map((pattern) => pattern.trim())
    .filter(Boolean);
  const conn = await connection(values, io.env);
  const secret = await signingSecret(conn, io.env);
  const stop = interrupted();
  try {
    const stream = conn.client.events.stream(conn.appId, {
      signal: stop.signal,
      // One pattern is filtered by the service; several, here.
      ...(patterns.length === 1 ? { type: patterns[0] } : {}),
      onOpen({ reconnected, lastEventId }) {
        if (reconnected) {
          io.out.write(`${clock()}  Reconnected, resuming after ${lastEventId ?? "the start"}\n`);
          return;
        }
        io.out.write(
          `Ready! Forwarding the events of ${conn.appId} to ${target.href}\n` +
            `Your webhook signing secret is ${secret} (^C to stop)\n`,
        );
      },
    });
    for await (const event of stream) {
      if (!matches(patterns, event.type)) continue;
      io.out.write(`${clock()}  --> ${event.type} [${event.id}]\n`);
      await forward(target, secret, event, io);
    }
    io.out.write("Stopped.\n");
  } finally {
    stop.release();
  }
}
