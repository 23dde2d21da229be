import { useEffect, useRef } from "react";
import { useSearchParams } from "react-router";

// A list's filters live in the page's address, so a view can be shared, bookmarked or reloaded
// as it is: each list names its keys, and a change replaces the history entry (typing a filter is
// not a page a person would go back to).

export type UrlFilters<K extends string> = Partial<Record<K, string>>;

export function useUrlFilters<K extends string>(keys: readonly K[]) {
  const [params, setParams] = useSearchParams();
  // Each change starts from the last one asked for, not from the address this render saw: the
  // router applies a navigation in a transition, so a change made before it lands (a status
  // picked, then "Search" pressed at once) would otherwise start from the old address and undo
  // the first. An address changed from outside (back, a link) is taken up once it renders.
  const latest = useRef(params);
  useEffect(() => {
    latest.current = params;
  }, [params]);
  const filters: UrlFilters<K> = {};
  for (const key of keys) {
    const value = params.get(key);
    if (value) filters[key] = value;
  }
  const set = (changes: Partial<Record<K, string | undefined>>) => {
    const next = new URLSearchParams(latest.current);
    for (const [key, value] of Object.entries(changes) as [string, string | undefined][]) {
      if (value) next.set(key, value);
      else next.delete(key);
    }
    latest.current = next;
    setParams(next, { replace: true });
  };
  const clear = () =>
    set(Object.fromEntries(keys.map((key) => [key, undefined])) as Partial<Record<K, undefined>>);
  return { filters, set, clear, active: Object.keys(filters).length > 0 };
}

/** A calendar day (`2026-11-26`, from a date input) as the instant it starts in the viewer's zone. */
export const startOfDay = (day: string) => new Date(`${day}T00:00:00`).toISOString();

/** The last instant of a calendar day in the viewer's zone. */
export const endOfDay = (day: string) => new Date(`${day}T23:59:59.999`).toISOString();
