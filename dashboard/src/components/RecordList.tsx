import { Group, Paper, Stack, Table, Text, VisuallyHidden } from "@mantine/core";
import { useMediaQuery } from "@mantine/hooks";
import type { Key, ReactNode } from "react";

/** Under this width a table's row cannot be read without scrolling sideways: each record is a card. */
export const NARROW = "(max-width: 600px)";

/** Whether the screen is a phone's (NARROW). */
export function useNarrow(): boolean {
  return useMediaQuery(NARROW) ?? false;
}

/**
 * One record on a phone: its name (or id, or amount) and its status on the first line, then the
 * rest, each line wrapping rather than widening the page.
 */
export function RecordCard({
  label,
  title,
  status,
  children,
}: {
  /** The card's accessible name (`Payment pay_…`). */
  label: string;
  title: ReactNode;
  status?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <Paper withBorder p="sm" component="article" aria-label={label}>
      <Stack gap={4}>
        <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs">
          <div style={{ minWidth: 0, overflowWrap: "anywhere" }}>{title}</div>
          {status}
        </Group>
        {children}
      </Stack>
    </Paper>
  );
}

/** A labelled value on a card: the table's column header, then the cell. */
export function CardLine({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Group gap={6} wrap="nowrap" align="baseline">
      <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
        {label}
      </Text>
      <Text size="sm" component="div" style={{ minWidth: 0, overflowWrap: "anywhere" }}>
        {children}
      </Text>
    </Group>
  );
}

/** The cards of a list, named as the table's caption would name it. */
export function CardStack({ label, children }: { label?: string; children: ReactNode }) {
  return (
    <Stack gap="xs" component="section" aria-label={label}>
      {children}
    </Stack>
  );
}

export interface Column<T> {
  /** The column's header, and the value's label on a card. */
  header: string;
  cell(row: T): ReactNode;
  /**
   * Where the value goes on a card: `title` (first line, left), `status` (first line, right),
   * `actions` (last, its header only for screen readers in the table), else a labelled line.
   */
  place?: "title" | "status" | "actions";
  /** Hidden from the table under Mantine's `sm` breakpoint (a card always shows it). */
  wide?: boolean;
}

/**
 * A list of records: a table on a wide screen, a stack of `RecordCard`s under 600 px, from one
 * description of its columns, so both show the same things.
 */
export function RecordList<T>({
  rows,
  columns,
  rowKey,
  cardLabel,
  caption,
  minWidth = 480,
}: {
  rows: T[];
  columns: Column<T>[];
  rowKey(row: T): Key;
  cardLabel(row: T): string;
  caption?: string;
  minWidth?: number;
}) {
  const narrow = useNarrow();
  if (narrow) {
    const placed = (place: Column<T>["place"]) => columns.filter((column) => column.place === place);
    const lines = columns.filter((column) => column.place === undefined);
    return (
      <CardStack label={caption}>
        {caption && (
          <Text size="sm" fw={500}>
            {caption}
          </Text>
        )}
        {rows.map((row) => (
          <RecordCard
            key={rowKey(row)}
            label={cardLabel(row)}
            title={placed("title").map((column) => <div key={column.header}>{column.cell(row)}</div>)}
            status={placed("status").map((column) => <div key={column.header}>{column.cell(row)}</div>)}
          >
            {lines.map((column) => (
              <CardLine key={column.header} label={column.header}>
                {column.cell(row)}
              </CardLine>
            ))}
            {placed("actions").map((column) => (
              <div key={column.header}>{column.cell(row)}</div>
            ))}
          </RecordCard>
        ))}
      </CardStack>
    );
  }
  return (
    <Table.ScrollContainer minWidth={minWidth}>
      <Table striped highlightOnHover verticalSpacing="sm" captionSide="top">
        {caption && <Table.Caption>{caption}</Table.Caption>}
        <Table.Thead>
          <Table.Tr>
            {columns.map((column) => (
              <Table.Th key={column.header} visibleFrom={column.wide ? "sm" : undefined}>
                {column.place === "actions" ? (
                  <VisuallyHidden>{column.header}</VisuallyHidden>
                ) : (
                  column.header
                )}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={rowKey(row)}>
              {columns.map((column) => (
                <Table.Td
                  key={column.header}
                  visibleFrom={column.wide ? "sm" : undefined}
                  style={{ overflowWrap: "anywhere" }}
                >
                  {column.cell(row)}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
