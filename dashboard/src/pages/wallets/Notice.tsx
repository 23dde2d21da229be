import { Alert } from "@mantine/core";
import type { ReactNode } from "react";

/**
 * Something to do before the page can be used (no wallet yet, a plan that cannot be made): a pale
 * yellow box whose title is in the body text colour, since Mantine's yellow title on yellow is
 * below the 4.5:1 contrast every page is held to.
 */
export function Notice({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Alert color="yellow" title={title} styles={{ title: { color: "var(--mantine-color-text)" } }}>
      {children}
    </Alert>
  );
}
