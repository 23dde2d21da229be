import { Code, Group, Stack, Table, Text, TextInput, Title } from "@mantine/core";
import type { Schemas } from "@payments-backend/sdk";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { FormEvent } from "react";
import { useAppId, useClient } from "../../api.tsx";
import { FilterButtons, useDraft } from "../../components/filter-bar.tsx";
import { LocalTime } from "../../components/LocalTime.tsx";
import { PageState } from "../../components/PageState.tsx";
import { CardStack, RecordCard, useNarrow } from "../../components/RecordList.tsx";
import { startOfDay, useUrlFilters } from "../../components/url-filters.ts";
import { Pager, pageQuery, useCursorPages } from "../payments/paging.tsx";

type AuditEvent = Schemas["AuditEvent"];

const KEYS = ["action", "actor", "from", "to"] as const;

type Draft = Record<(typeof KEYS)[number], string>;

const who = (row: AuditEvent) => `${row.actor.type === "api_key" ? "API key" : "User"} ${row.actor.id}`;

/** One change on a phone: the action and its time first, then its target, who and from where. */
function AuditCard({ row }: { row: AuditEvent }) {
  return (
    <RecordCard
      label={`Change ${row.action}`}
      title={<Code>{row.action}</Code>}
      status={
        <Text size="xs" c="dimmed">
          <LocalTime value={row.created_at} />
        </Text>
      }
    >
      <Text size="sm" style={{ overflowWrap: "anywhere" }}>
        {row.target_id ?? "no record"}
      </Text>
      <Text size="xs" c="dimmed" style={{ overflowWrap: "anywhere" }}>
        {who(row)} · {row.ip ?? "no address"}
      </Text>
    </RecordCard>
  );
}

function AuditTable({ rows }: { rows: AuditEvent[] }) {
  if (useNarrow()) {
    return (
      <CardStack>
        {rows.map((row) => (
          <AuditCard key={row.id} row={row} />
        ))}
      </CardStack>
    );
  }
  return (
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
                  {who(row)}
                </Text>
              </Table.Td>
              <Table.Td>{row.ip ?? "—"}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/**
 * Every change the app's members and keys made, newest first, filtered by action, actor and days
 * (in the address, so a view can be shared), paged by cursor; cards under 600 px.
 */
export default function AuditLogPage() {
  const appId = useAppId();
  const client = useClient();
  const { filters, set, clear, active } = useUrlFilters(KEYS);
  const pages = useCursorPages();
  const { draft, setDraft, field } = useDraft<Draft>(() => ({
    action: filters.action ?? "",
    actor: filters.actor ?? "",
    from: filters.from ?? "",
    to: filters.to ?? "",
  }));
  const log = useQuery({
    queryKey: ["apps", appId, "audit-log", { ...filters, cursor: pages.cursor }],
    queryFn: () =>
      client.apps
        .listAuditLog(appId, {
          limit: 50,
          action: filters.action,
          actor: filters.actor,
          since: filters.from ? startOfDay(filters.from) : undefined,
          // `until` is exclusive: the start of the day after the last one chosen.
          until: filters.to
            ? new Date(Date.parse(startOfDay(filters.to)) + 24 * 3600_000).toISOString()
            : undefined,
        })
        .page(pageQuery(pages.cursor)),
    placeholderData: keepPreviousData,
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    pages.reset();
    set({ action: draft.action.trim(), actor: draft.actor.trim(), from: draft.from, to: draft.to });
  };
  return (
    <Stack>
      <Title order={1}>Audit log</Title>
      <form onSubmit={submit} aria-label="Filter the audit log">
        <Stack gap="xs">
          <Group align="end" wrap="wrap">
            <TextInput label="Action" placeholder="member.* or price.delete" w={200} {...field("action")} />
            <TextInput label="Actor id" placeholder="usr_… or key_…" w={200} {...field("actor")} />
            <TextInput label="From" type="date" w={170} {...field("from")} />
            <TextInput label="To" type="date" w={170} {...field("to")} />
            <FilterButtons
              label="Filter"
              variant="filled"
              active={active}
              onClear={() => {
                setDraft({ action: "", actor: "", from: "", to: "" });
                pages.reset();
                clear();
              }}
            />
          </Group>
          <Text size="xs" c="dimmed">
            Days are in your time zone.
          </Text>
        </Stack>
      </form>
      <PageState query={log} empty="No changes match." isEmpty={(page) => page.data.length === 0}>
        {(page) => (
          <Stack>
            <AuditTable rows={page.data} />
            <Pager pages={pages} label="Audit log" page={page} />
          </Stack>
        )}
      </PageState>
    </Stack>
  );
}
