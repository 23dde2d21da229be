import { context, propagation, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BatchSpanProcessor, SimpleSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";

import type { Tracing, TracingOptions } from "./tracing.ts";

// OpenTelemetry's SDK and OTLP exporter, registered behind the API that tracing.ts uses. tracing.ts
// imports this file only when an exporter is configured: an untraced process never loads the SDK.

/** Registers the SDK for this process: spans go to the given exporter, or else to OTLP. */
export function registerTracing(options: TracingOptions): Tracing {
  // startTracing calls this only when one of the two is set.
  const processor = options.exporter
    ? new SimpleSpanProcessor({ exporter: options.exporter })
    : new BatchSpanProcessor({
        exporter: new OTLPTraceExporter({ url: `${options.otlpEndpoint!.replace(/\/$/, "")}/v1/traces` }),
      });
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
