import { Group, Text } from "@mantine/core";
import type { ReactNode } from "react";

/** One labelled value of a record, label left and value right, wrapping long ids on a phone. */
export function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Group justify="space-between" gap="xs" wrap="nowrap">
      <Text size="sm" c="dimmed" style={{ flexShrink: 0 }}>
        {label}
      </Text>
      <Text size="sm" ta="right" component="div" style={{ overflowWrap: "anywhere" }}>
        {children}
      </Text>
    </Group>
  );
}
