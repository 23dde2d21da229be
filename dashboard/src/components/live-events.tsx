import { ApiError, type Client } from "@payments-backend/sdk";
import { type QueryClient, type QueryKey, useQueryClient } from "@tanstack/react-query";
import { createContext, type ReactNode, useContext, useEffect, useState } from "react";
import { useClient } from "../api.tsx";
import { keysOf } from "./event-keys.ts";

/*
 * How an open app's pages stay current: one stream of the app's events
 * (`GET /events/{app_id}/stream`, through the SDK's `client.events.stream`, which sends the
 * session's Authorization header as an EventSource could not) for the whole app, opened by its
 * layout. Each event marks stale the queries it concerns (event-keys.ts) and TanStack Query reads
 * again those on screen. While the stream is down the pages poll, as they did before it existed;
 * once it is back they stop. docs/dashboard.md, "Live pages", says why.
 */

/** `stream`: events arrive; `polling`: the stream is failing (or not open yet), pages read again. */
export type LiveMode = "connecting" | "stream" | "polling";

/** How often a page reads again while the stream is down: a change shows within two seconds. */
export const FALLBACK_POLL_MS = 1800;

/** Waits between attempts to open the stream again: doubling from the first, up to the last. */
const FIRST_RETRY_MS = 2000;
const MAX_RETRY_MS = 10_000;

/** At most one round of reads per this long, however many events come: a busy app is not re-read per event. */
const FLUSH_MS = 1000;

const LiveContext = createContext<LiveMode>("polling");

/** Whether the open app's events are streaming (pages outside an app poll, having no stream). */
export function useLiveMode(): LiveMode {
  return useContext(LiveContext);
}

/** A query's `refetchInterval` for what the stream announces: none while it streams, else `ms`. */
export function useFallbackInterval(ms: number = FALLBACK_POLL_MS): number | false {
  return useLiveMode() === "stream" ? false : ms;
}

/** Opens the app's event stream for everything below it, and reopens it after a drop. */
export function LiveEvents({ appId, children }: { appId: string; children: ReactNode }) {
  const mode = useLiveEvents(appId);
  return <LiveContext.Provider value={mode}>{children}</LiveContext.Provider>;
}

function useLiveEvents(appId: string): LiveMode {
  const client = useClient();
  const queryClient = useQueryClient();
  const [mode, setMode] = useState<LiveMode>("connecting");
  useEffect(() => {
    const controller = new AbortController();
    setMode("connecting");
    void follow(client, queryClient, appId, controller.signal, setMode);
    return () => controller.abort();
  }, [client, queryClient, appId]);
  return mode;
}

/** Marks stale the keys given, at most once per FLUSH_MS; a hidden tab reads them when seen again. */
function invalidator(queryClient: QueryClient) {
  const pending = new Map<string, QueryKey>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let last = 0;
  const flush = () => {
    timer = undefined;
    last = Date.now();
    // Hidden: only marked stale; TanStack Query reads them again when the tab is seen.
    const refetchType = document.visibilityState === "hidden" ? "none" : "active";
    for (const queryKey of pending.values()) void queryClient.invalidateQueries({ queryKey, refetchType });
    pending.clear();
  };
  return {
    add(keys: QueryKey[]) {
      for (const key of keys) pending.set(JSON.stringify(key), key);
      if (timer === undefined) timer = setTimeout(flush, Math.max(0, last + FLUSH_MS - Date.now()));
    },
    stop() {
      clearTimeout(timer);
    },
  };
}

/** The stream's loop: open, invalidate per event, and after a drop poll and open again. */
async function follow(
  client: Client,
  queryClient: QueryClient,
  appId: string,
  signal: AbortSignal,
  setMode: (mode: LiveMode) => void,
) {
  const invalidate = invalidator(queryClient);
  signal.addEventListener("abort", () => invalidate.stop(), { once: true });
  let lastEventId: string | undefined;
  let failures = 0;
  while (!signal.aborted) {
    // The SDK's own reconnection is off: this loop needs to know when the stream is down, to poll.
    const stream = client.events.stream(appId, {
      signal,
      lastEventId,
      reconnect: false,
      onOpen() {
        failures = 0;
        setMode("stream");
        // What the page read before the stream opened (or while it was down, between two polls)
        // may already be old: read it once more; from here on events say when.
        void queryClient.invalidateQueries({ predicate: (query) => query.queryKey[1] === appId });
      },
    });
    let forgotten = false;
    try {
      for await (const event of stream) invalidate.add(keysOf(appId, event));
    } catch (error) {
      // An event id the service no longer keeps (events live a few days): start from now.
      forgotten = error instanceof ApiError && error.status === 400;
    }
    if (signal.aborted) return;
    // Resume after the last event received, so none is missed or repeated.
    lastEventId = forgotten ? undefined : stream.lastEventId;
    setMode("polling");
    failures += 1;
    await pause(Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** (failures - 1)), signal);
  }
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}
