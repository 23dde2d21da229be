import { Button, Code, Group, Stack, Table, Text, TextInput, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useAppId, useClient } from "../../api.tsx";
import { LocalTime } from "../../components/LocalTime.tsx";
import { PageState } from "../../components/PageState.tsx";

interface Filters {
  action?: string;
  actor?: string;
  since?: string;
  until?: string;
}

/** A date input's day as the instant it starts (local time), for `since`/`until`. */
const dayStart = (day: string) => (day ? new Date(`${day}T00:00:00`).toISOString() : undefined);

/** Every change the app's members and keys made, newest first, filtered by action, actor and date. */
export default function AuditLogPage() {
  const appId = useAppId();
  const client = useClient();
  const [filters, setFilters] = useState<Filters>({});
  const log = useQuery({
    queryKey: ["apps", appId, "audit-log", filters],
    queryFn: () => client.apps.listAuditLog(appId, { limit: 100, ...filters }).toArray(100),
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? "").trim() || undefined;
    const until = text("until");
    setFilters({
      action: text("action"),
      actor: text("actor"),
      since: dayStart(text("since") ?? ""),
      // Through the whole of the last day chosen.
      until: until ? new Date(Date.parse(`${until}T00:00:00`) + 24 * 3600_000).toISOString() : undefined,
    });
  };
  return (
    <Stack component="main" p="md">
      <Title order={1}>Audit log</Title>
      <form onSubmit={submit} aria-label="Filter the audit log">
        <Group align="end">
          <TextInput label="Action" name="action" placeholder="member.* or price.delete" w={200} />
          <TextInput label="Actor id" name="actor" placeholder="usr_… or key_…" w={200} />
          <TextInput label="From" name="since" type="date" />
          <TextInput label="To" name="until" type="date" />
          <Button type="submit">Filter</Button>
        </Group>
      </form>
      <PageState query={log} empty="No changes match.">
        {(rows) => (
          <Table.ScrollContainer minWidth={640}>
            <Table verticalSpacing="xs" captionSide="top">
              <Table.Caption>Newest first</Table.Caption>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>When</Table.Th>
                  <Table.Th>Action</Table.Th>
                  <Table.Th>Target</Table.Th>
                  <Table.Th>By</Table.Th>
                  <Table.Th>Address</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((row) => (
                  <Table.Tr key={row.id}>
                    <Table.Td>
                      <LocalTime value={row.created_at} />
                    </Table.Td>
                    <Table.Td>
                      <Code>{row.action}</Code>
                    </Table.Td>
                    <Table.Td>
                      <Text size="xs" style={{ wordBreak: "break-all" }}>
                        {row.target_id ?? "—"}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="xs" style={{ wordBreak: "break-all" }}>
                        {row.actor.type === "api_key" ? "API key " : "User "}
                        {row.actor.id}
                      </Text>
                    </Table.Td>
                    <Table.Td>{row.ip ?? "—"}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </PageState>
    </Stack>
  );
}
