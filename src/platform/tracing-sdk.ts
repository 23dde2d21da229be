import { context, propagation, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import {
  BatchSpanProcessor,
  SimpleSpanProcessor,
  type SpanExporter,
  TracerProvider,
} from "@opentelemetry/sdk-trace";

// OpenTelemetry's SDK and OTLP exporter, registered behind the API that tracing.ts uses. app.ts
// imports this file only when an exporter is configured: an untraced process never loads the SDK.

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

/** Starts tracing for this process when an exporter is configured; otherwise nothing (undefined). */
export function startTracing(options: TracingOptions): Tracing | undefined {
  const processor = options.exporter
    ? new SimpleSpanProcessor({ exporter: options.exporter })
    : options.otlpEndpoint
      ? new BatchSpanProcessor({
          exporter: new OTLPTraceExporter({ url: `${options.otlpEndpoint.replace(/\/$/, "")}/v1/traces` }),
        })
      : undefined;
  if (!processor) return undefined;
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ "service.name": options.serviceName }),
    spanProcessors: [processor],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  return {
    async shutdown() {
      await provider.shutdown();
      trace.disable();
      propagation.disable();
      context.disable();
    },
  };
}
