import { parseRateLimits, type RateLimitSettings } from "../platform/http/rate-limit.ts";
import { ConfigError, type Env } from "./parse.ts";

/** How the service meets the network around it: proxies, request limits, metrics and traces. */
export interface ServingSettings {
  /** Per-client and per-price request limits (`RATE_LIMITS` overrides; docs/reliability.md). */
  rateLimits: RateLimitSettings;
  /** Which proxies' `X-Forwarded-For` names the client (`TRUST_PROXY`, Fastify's `trustProxy`). */
  trustProxy: boolean | number | string;
  /** Bearer token `GET /metrics` asks for; absent: metrics are not served (404). */
  metricsToken: string | undefined;
  /** OpenTelemetry traces go to this OTLP/HTTP collector when set (OTEL_EXPORTER_OTLP_ENDPOINT). */
  otelEndpoint: string | undefined;
}

export function loadServingSettings(env: Env): ServingSettings {
  return {
    rateLimits: rateLimits(env),
    trustProxy: trustProxy(env),
    metricsToken: metricsToken(env),
    otelEndpoint: otelEndpoint(env),
  };
}

/** A secret long enough not to be guessed, in characters a header carries as is. */
function metricsToken(env: Env): string | undefined {
  const raw = env.METRICS_TOKEN || undefined;
  if (raw !== undefined && !/^[A-Za-z0-9._~+/=-]{24,256}$/.test(raw)) {
    throw new ConfigError("METRICS_TOKEN", "must be 24 to 256 characters of A-Z a-z 0-9 . _ ~ + / = -");
  }
  return raw;
}

function rateLimits(env: Env): RateLimitSettings {
  const parsed = parseRateLimits(env.RATE_LIMITS);
  if (typeof parsed === "string") throw new ConfigError("RATE_LIMITS", parsed);
  return parsed;
}

/**
 * Off by default: the client is the connection's peer. Behind a load balancer, `true` trusts every
 * hop, a number trusts that many hops, and a list of addresses or CIDR ranges trusts those proxies.
 */
function trustProxy(env: Env): boolean | number | string {
  const value = (env.TRUST_PROXY ?? "").trim();
  if (value === "" || value === "false") return false;
  if (value === "true") return true;
  if (/^\d{1,2}$/.test(value)) return Number(value);
  if (/^[0-9a-fA-F.:/, ]+$/.test(value)) return value;
  throw new ConfigError("TRUST_PROXY", "must be true, false, a hop count, or addresses/CIDR ranges");
}

function otelEndpoint(env: Env): string | undefined {
  const value = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (!value) return undefined;
  if (!/^https?:\/\/[^\s]+$/.test(value)) {
    throw new ConfigError(
      "OTEL_EXPORTER_OTLP_ENDPOINT",
      "must be an http(s) URL, e.g. http://collector:4318",
    );
  }
  return value;
}
