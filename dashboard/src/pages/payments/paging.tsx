import { Button, Group, Text } from "@mantine/core";
import type { PageAnswer } from "@payments-backend/sdk";
import { useState } from "react";

/**
 * Cursor paging as the API pages (`starting_after`, no OFFSET): the cursors of the pages walked
 * so far are kept, so "Previous" goes back to exactly the page that was seen, even when new
 * records arrived meanwhile.
 */
export function useCursorPages() {
  const [cursors, setCursors] = useState<string[]>([]);
  return {
    cursor: cursors.at(-1),
    pageNumber: cursors.length + 1,
    next: (lastId: string) => setCursors((walked) => [...walked, lastId]),
    previous: () => setCursors((walked) => walked.slice(0, -1)),
    reset: () => setCursors([]),
  };
}

export type CursorPages = ReturnType<typeof useCursorPages>;

/** The query that asks for the page after `cursor` (the first page without one). */
export function pageQuery(cursor: string | undefined): { starting_after?: string } {
  return cursor === undefined ? {} : { starting_after: cursor };
}

interface PagerProps {
  pages: CursorPages;
  page: PageAnswer<{ id: string }>;
  label: string;
}

/** Previous / next buttons under a list, with where the reader stands. */
export function Pager({ pages, page, label }: PagerProps) {
  const { hasMore, total, totalCapped } = page;
  const last = page.data.at(-1);
  if (pages.pageNumber === 1 && !hasMore) return null;
  return (
    <Group justify="space-between" component="nav" aria-label={`${label} pages`}>
      <Text size="sm" c="dimmed">
        Page {pages.pageNumber} · {totalCapped ? `over ${total}` : total} in all
      </Text>
      <Group gap="xs">
        <Button variant="default" onClick={pages.previous} disabled={pages.pageNumber === 1}>
          Previous
        </Button>
        <Button variant="default" onClick={() => last && pages.next(last.id)} disabled={!hasMore || !last}>
          Next
        </Button>
      </Group>
    </Group>
  );
}
