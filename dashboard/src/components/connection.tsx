import { Alert, Text } from "@mantine/core";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useSyncExternalStore } from "react";

// Whether the service answers, known to the whole console: a call that could not connect marks it
// out of reach, a probe of `/health` every few seconds notices its return, and then every query on
// screen is fetched again, so a page recovers by itself instead of waiting for a reload.

/** How often the console asks whether the service is back; short enough to feel immediate. */
export const PROBE_MS = 2_000;

let unreachable = false;
const listeners = new Set<() => void>();

function set(next: boolean) {
  if (unreachable === next) return;
  unreachable = next;
  for (const listener of listeners) listener();
}

/** Called by the query cache on a failure that was no answer at all (components/errors.ts). */
export function markUnreachable() {
  set(true);
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Whether the last call could not reach the service (until a probe finds it again). */
export function useUnreachable(): boolean {
  return useSyncExternalStore(subscribe, () => unreachable);
}

/** Whether the service answers its health check now. */
export async function answers(): Promise<boolean> {
  try {
    const response = await fetch("/health", { cache: "no-store" });
    return response.ok;
  } catch {
    return false;
  }
}

/**
 * A banner while the service is out of reach; it probes until the service answers, then fetches
 * again what the page shows. Rendered once, by the shell and by the pages outside it.
 */
export function ConnectionBanner() {
  const down = useUnreachable();
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!down) return;
    let stopped = false;
    const probe = async () => {
      if (stopped) return;
      if (await answers()) {
        set(false);
        void queryClient.refetchQueries({ type: "active" });
        return;
      }
      timer = setTimeout(() => void probe(), PROBE_MS);
    };
    let timer = setTimeout(() => void probe(), PROBE_MS);
    const onOnline = () => void probe();
    window.addEventListener("online", onOnline);
    return () => {
      stopped = true;
      clearTimeout(timer);
      window.removeEventListener("online", onOnline);
    };
  }, [down, queryClient]);
  if (!down) return null;
  return (
    <Alert color="orange" title="We can't reach the service" role="status" mb="md">
      <Text size="sm">
        Your changes are not lost. This page checks again every few seconds and refreshes itself when the
        service answers.
      </Text>
    </Alert>
  );
}
