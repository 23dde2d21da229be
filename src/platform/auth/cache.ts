import { ExpiringMap } from "../expiring-map.ts";
import type { Principal } from "./principal.ts";

/**
 * What a revocation names: one session, one API key, every key of an app, or every session of a
 * user but the one they act from (a password reset or change).
 */
export type Revocation =
  | { sessionId: string }
  | { keyId: string }
  | { appId: string }
  | { userId: string; exceptSessionId?: string };

interface Entry {
  principal: Principal;
  /** The credential's own expiry (sessions), checked on every hit. */
  expiresAt: number | undefined;
}

/**
 * Remembers resolved credentials for a short time so an authenticated request costs no extra
 * database round trip. Correctness does not rest on the time limit: every revocation (log-out,
 * key revoked, app deleted) is published with NOTIFY in the same transaction and drops the entry
 * in every process when it commits; the time limit only bounds the damage of a lost notification
 * (the listener clears everything when it reconnects). A lookup that started before a revocation
 * never writes its answer back (the generation check), so a revoked credential cannot be re-cached.
 */
export class CredentialCache {
  /** An entry lapses after `ttlMs` whatever happens: the bound on a lost notification. */
  private readonly entries: ExpiringMap<string, Entry>;
  private generation = 0;
  private readonly ttlMs: number;
  private readonly now: () => number;

  constructor(options: { ttlMs: number; maxEntries?: number; now?: () => number }) {
    this.ttlMs = options.ttlMs;
    this.now = options.now ?? Date.now;
    this.entries = new ExpiringMap({
      ttlMs: options.ttlMs,
      maxEntries: options.maxEntries ?? 10_000,
      now: this.now,
    });
  }

  async resolve(
    hash: string,
    load: () => Promise<{ principal: Principal; expiresAt?: Date } | undefined>,
  ): Promise<Principal | undefined> {
    const hit = this.entries.get(hash);
    if (hit && (hit.expiresAt === undefined || hit.expiresAt > this.now())) return hit.principal;
    if (hit) this.entries.delete(hash);
    if (this.ttlMs === 0) return (await load())?.principal;
    const generation = this.generation;
    const loaded = await load();
    if (!loaded) return undefined;
    if (generation === this.generation) {
      this.entries.set(hash, { principal: loaded.principal, expiresAt: loaded.expiresAt?.getTime() });
    }
    return loaded.principal;
  }

  revoke(revocation: Revocation): void {
    this.generation++;
    for (const [hash, { principal }] of this.entries.entries()) {
      const matches =
        ("sessionId" in revocation &&
          principal.kind === "user" &&
          principal.sessionId === revocation.sessionId) ||
        ("keyId" in revocation && principal.kind === "api_key" && principal.keyId === revocation.keyId) ||
        ("appId" in revocation && principal.kind === "api_key" && principal.appId === revocation.appId) ||
        ("userId" in revocation &&
          principal.kind === "user" &&
          principal.userId === revocation.userId &&
          principal.sessionId !== revocation.exceptSessionId);
      if (matches) this.entries.delete(hash);
    }
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
  }
}
