import { Alert, Button, Group, Skeleton, Stack, Text } from "@mantine/core";
import type { UseQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { explainError } from "./errors.ts";

interface PageStateProps<T> {
  query: UseQueryResult<T>;
  /** Shown instead of the children when the data is an empty list (or `isEmpty` says so). */
  empty?: ReactNode;
  isEmpty?: (data: T) => boolean;
  children: (data: T) => ReactNode;
}

/** A query's three other states (loading, empty, failed) in one place, so every page shows them alike. */
export function PageState<T>({ query, empty, isEmpty, children }: PageStateProps<T>) {
  if (query.isPending) return <LoadingSkeleton />;
  if (query.isError) return <ErrorAlert error={query.error} onRetry={() => void query.refetch()} />;
  const data = query.data;
  const blank = isEmpty ? isEmpty(data) : Array.isArray(data) && data.length === 0;
  if (blank && empty !== undefined) {
    return (
      <Text c="dimmed" py="lg" ta="center">
        {empty}
      </Text>
    );
  }
  return <>{children(data)}</>;
}

/**
 * Placeholder lines while a page's data (or its code) loads. A `status` region, since a plain
 * element may not carry a name (axe: aria-prohibited-attr), and a part of a page may load after
 * the rest of it (a payment's timeline).
 */
export function LoadingSkeleton() {
  return (
    <Stack gap="sm" role="status" aria-busy="true" aria-label="Loading">
      <Skeleton height={20} />
      <Skeleton height={20} />
      <Skeleton height={20} width="60%" />
    </Stack>
  );
}

/**
 * A failed call, in words: a title and the problem's detail for people, the request id (not a code)
 * for a support request, and "Try again" only where trying again can help.
 */
export function ErrorAlert({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const { title, detail, retryable, reference } = explainError(error);
  return (
    <Alert color="red" title={title} role="alert">
      <Stack gap="xs">
        <Text size="sm">{detail}</Text>
        {reference && (
          <Text size="xs" c="dimmed">
            Reference: <span style={{ fontFamily: "monospace" }}>{reference}</span>
          </Text>
        )}
        {onRetry && retryable && (
          <Group>
            <Button size="xs" variant="default" onClick={onRetry}>
              Try again
            </Button>
          </Group>
        )}
      </Stack>
    </Alert>
  );
}
