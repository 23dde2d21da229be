import { Badge, type MantineColor } from "@mantine/core";
import type { ReactNode } from "react";

/**
 * A status word in dark text on a pale tint of its colour: Mantine's default badge text (white on a
 * mid shade, or a mid shade on a tint) is below the 4.5:1 contrast every page is held to.
 */
export function StatusBadge({ color, children }: { color: MantineColor; children: ReactNode }) {
  return (
    <Badge variant="light" color={color} c="dark">
      {children}
    </Badge>
  );
}
