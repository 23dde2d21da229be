import { Alert, Anchor, Button, Group, Stack, Text, Title } from "@mantine/core";
import { useEffect } from "react";
import { isRouteErrorResponse, Link, useRouteError } from "react-router";
import { answers, PROBE_MS } from "./connection.tsx";
import { explainError, isChunkLoadError, isUnreachable } from "./errors.ts";

/**
 * What a page shows when it throws, or when its code cannot load: inside the shell (the navbar and
 * the header stay), in words, with a way back. A page whose code failed to load because the
 * service was out of reach loads again by itself once the connection banner finds the service.
 */
export function RouteError() {
  const error = useRouteError();
  const missingPage = isRouteErrorResponse(error) && error.status === 404;
  const reloadable = isChunkLoadError(error) || isUnreachable(error);
  useEffect(() => {
    if (!reloadable) return;
    // The failed chunk is remembered by the browser's module map: only a reload fetches it anew,
    // and only once the service answers (a reload before would leave the browser's own error page).
    const timer = setInterval(async () => {
      if (await answers()) window.location.reload();
    }, PROBE_MS);
    return () => clearInterval(timer);
  }, [reloadable]);
  const explained = missingPage
    ? { title: "Page not found", detail: "Nothing lives at this address.", retryable: false }
    : explainError(error);
  return (
    <Stack gap="md" maw={640}>
      <Title order={1}>{missingPage ? "Page not found" : "This page could not be shown"}</Title>
      <Alert color="red" title={explained.title} role="alert">
        <Text size="sm">{explained.detail}</Text>
      </Alert>
      <Group>
        {explained.retryable && (
          <Button variant="default" onClick={() => window.location.reload()}>
            Try again
          </Button>
        )}
        <Anchor component={Link} to="/" underline="always">
          Back to your apps
        </Anchor>
      </Group>
    </Stack>
  );
}
