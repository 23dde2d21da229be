import {
  type Context,
  context,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from "@opentelemetry/api";
import type { SpanExporter } from "@opentelemetry/sdk-trace";
import type { FastifyInstance, FastifyRequest } from "fastify";

/**
 * Traces by OpenTelemetry's official packages: the API in the code (a no-op until a provider is
 * registered, so an untraced process pays next to nothing), and the SDK with the OTLP/HTTP exporter
 * switched on by OTEL_EXPORTER_OTLP_ENDPOINT. One trace runs from a request through the jobs it asks
 * for (their data carries the W3C `traceparent`) to the provider and chain calls (docs/tracing.md).
 * This file needs only the API; the SDK is in tracing-sdk.ts, loaded only when tracing is on.
 */

const tracer = () => trace.getTracer("payments-backend");

export interface Tracing {
  shutdown(): Promise<void>;
}

export interface TracingOptions {
  serviceName: string;
  /** OTLP/HTTP collector, e.g. `http://otel-collector:4318` (spans go to `/v1/traces`). */
  otlpEndpoint?: string;
  /** Tests: every span, synchronously, to this exporter. */
  exporter?: SpanExporter;
}

/**
 * Starts tracing for this process when an exporter is configured; otherwise nothing (undefined),
 * and OpenTelemetry's SDK is never loaded.
 */
export async function startTracing(options: TracingOptions): Promise<Tracing | undefined> {
  if (!options.exporter && !options.otlpEndpoint) return undefined;
  const { registerTracing } = await import("./tracing-sdk.ts");
  return registerTracing(options);
}

/**
 * A server span per request, named by its route template (never the raw URL: some paths carry a
 * token), continuing a caller's `traceparent`; everything the request does runs inside it.
 */
export function traceRequests(app: FastifyInstance) {
  const spans = new WeakMap<FastifyRequest, Span>();
  app.addHook("onRequest", (request, _reply, done) => {
    const parent = propagation.extract(ROOT_CONTEXT, request.headers);
    const route = request.routeOptions.url ?? "unmatched";
    const span = tracer().startSpan(
      `${request.method} ${route}`,
      { kind: SpanKind.SERVER, attributes: { "http.request.method": request.method, "http.route": route } },
      parent,
    );
    spans.set(request, span);
    context.with(trace.setSpan(parent, span), done);
  });
  app.addHook("onResponse", (request, reply, done) => {
    const span = spans.get(request);
    if (span) {
      span.setAttribute("http.response.status_code", reply.statusCode);
      if (reply.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    }
    done();
  });
}

/** The job data to store: `data` with the current trace's `traceparent`, when there is one. */
export function withTraceContext<T extends object>(data: T): T {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent ? { ...data, _trace: carrier } : data;
}

/** Runs a job inside a span of the trace its data carries (a new trace if none), without `_trace`. */
export async function inJobSpan<T>(
  name: string,
  data: object,
  run: (data: object) => Promise<T>,
): Promise<T> {
  const { _trace, ...rest } = data as { _trace?: Record<string, string> };
  const parent: Context = _trace ? propagation.extract(ROOT_CONTEXT, _trace) : ROOT_CONTEXT;
  return inSpan(`job ${name}`, SpanKind.CONSUMER, () => run(rest), parent);
}

/** Runs `run` in a child span of the current one; a throw marks the span failed. */
async function inSpan<T>(
  name: string,
  kind: SpanKind,
  run: () => Promise<T>,
  parent: Context = context.active(),
): Promise<T> {
  return tracer().startActiveSpan(name, { kind }, parent, async (span) => {
    try {
      return await run();
    } catch (error) {
      span.recordException(error as Error);
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw error;
    } finally {
      span.end();
    }
  });
}

/**
 * `target` with a client span around each of its `async` methods (`payments.sandbox.captureIntent`),
 * for outside systems; other members pass through. Methods run on the target itself, so private
 * fields keep working.
 */
export function traced<T extends object>(target: T, prefix: string): T {
  return new Proxy(target, {
    get(object, property) {
      const value = Reflect.get(object, property, object);
      if (
        typeof value !== "function" ||
        typeof property !== "string" ||
        value.constructor.name !== "AsyncFunction"
      ) {
        return typeof value === "function" ? value.bind(object) : value;
      }
      return (...args: unknown[]) => {
        if (!trace.getActiveSpan()) return value.apply(object, args);
        return inSpan(`${prefix}.${property}`, SpanKind.CLIENT, () => value.apply(object, args));
      };
    },
  });
}

/** Log fields of the current span, for every log line (pino's mixin). */
export function traceFields(): Record<string, string> {
  const span = trace.getActiveSpan();
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}
