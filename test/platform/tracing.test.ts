// One trace from a request through the jobs it asks for to the provider's calls (OpenTelemetry,
// an in-memory exporter), and the trace id on the log lines written inside it.
import assert from "node:assert/strict";
import { test } from "node:test";
import { InMemorySpanExporter, type ReadableSpan } from "@opentelemetry/sdk-trace";
import { eventually } from "../helpers/contract.ts";
import { useTestApp } from "../helpers/fixture.ts";
import { call, createApp, expectStatus, signup } from "../helpers/http.ts";
import { Receiver } from "../helpers/webhooks.ts";

const exporter = new InMemorySpanExporter();

const fx = useTestApp({ WEBHOOKS_ALLOW_LOOPBACK: "true" }, { spanExporter: exporter, tenants: false });

const spansOf = (traceId: string) =>
  exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === traceId);
const named = (spans: ReadableSpan[], name: string) => spans.filter((s) => s.name === name);

test("a payment's confirm leads one trace through its jobs to the provider", async (t) => {
  const owner = await signup(fx.app);
  const app = await createApp(fx.app, owner.token);
  const price = expectStatus(
    await call(fx.app, "POST", `/prices/${app.id}`, {
      token: owner.token,
      body: { name: "Ticket", amount: 12, currency: "usd" },
    }),
    201,
  );
  // An endpoint that listens to `payment.paid`: its delivery is a job the authorize job asks for.
  const receiver = new Receiver();
  t.after(() => receiver.stop());
  expectStatus(
    await call(fx.app, "POST", `/webhooks/${app.id}`, {
      token: owner.token,
      body: { url: await receiver.start(), events: ["payment.paid"] },
    }),
    201,
  );
  const payment = expectStatus(
    await call(fx.app, "POST", `/payments/${app.id}`, {
      token: owner.token,
      body: { price_id: price.id, payment_provider: "card" },
    }),
    201,
  );
  // A caller's own trace is continued (W3C traceparent), through the job the confirm queues (by the
  // job outbox) to the provider calls that job makes.
  const callerTrace = "4bf92f3577b34da6a3ce929d0e0e4736";
  expectStatus(
    await call(fx.app, "POST", `/payments/${app.id}/${payment.id}/confirm`, {
      token: owner.token,
      body: {
        payment_method: {
          type: "card",
          number: "4242424242424242",
          exp_month: 12,
          exp_year: 2030,
          cvc: "123",
        },
      },
      headers: { traceparent: `00-${callerTrace}-00f067aa0ba902b7-01` },
    }),
    200,
  );
  const confirmed = await eventually(() => {
    const spans = spansOf(callerTrace);
    return named(spans, "POST /payments/:app_id/:payment_id/confirm").length === 1 &&
      named(spans, "job payments.authorize").length === 1
      ? spans
      : undefined;
  }, 30_000);
  const confirm = named(confirmed, "POST /payments/:app_id/:payment_id/confirm")[0];
  const job = named(confirmed, "job payments.authorize")[0];
  assert.equal(
    job.parentSpanContext?.spanId,
    confirm.spanContext().spanId,
    "the job's span is the request's child",
  );
  const provider = await eventually(() =>
    spansOf(callerTrace).find((s) => s.name === "payments.sandbox.createAndConfirmIntent"),
  );
  assert.equal(
    provider.parentSpanContext?.spanId,
    job.spanContext().spanId,
    "the provider call is the job's child",
  );
  const confirmTrace = confirm.spanContext().traceId;
  await eventually(async () => {
    const read = expectStatus(
      await call(fx.app, "GET", `/payments/${app.id}/${payment.id}`, { token: owner.token }),
      200,
    );
    return read.status === "paid" ? read : undefined;
  }, 30_000);
  // The authorize job settles this payment itself (nothing between its hold and its capture): the
  // card was charged by that job's one provider call above, and no capture is asked.
  assert.equal(
    spansOf(confirmTrace).find((s) => s.name === "payments.sandbox.captureIntent"),
    undefined,
    "no capture call",
  );
  // A job asked for by a job is in the same trace: the webhook delivery of `payment.paid`.
  const delivery = await eventually(() => named(spansOf(confirmTrace), "job webhooks.deliver")[0], 30_000);
  assert.equal(
    delivery.parentSpanContext?.spanId,
    job.spanContext().spanId,
    "the delivery job is the job's child",
  );
  const logged = fx.app.logs.filter((line) => line.includes(`"trace_id":"${confirmTrace}"`));
  assert.ok(logged.length > 0, "log lines written inside the trace carry its id");
});
