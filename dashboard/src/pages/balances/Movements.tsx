import { Button, Group, Stack, Text, TextInput, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { describeError, useAppId, useClient, useSession } from "../../api.tsx";
import { FilterButtons, FilterSelect, useDraft } from "../../components/filter-bar.tsx";
import { FALLBACK_POLL_MS, useFallbackInterval } from "../../components/live-events.tsx";
import { PageState } from "../../components/PageState.tsx";
import { endOfDay, startOfDay, useUrlFilters } from "../../components/url-filters.ts";
import { Pager, pageQuery, useCursorPages } from "../payments/paging.tsx";
import { downloadLedgerCsv } from "./csv.ts";
import { LEDGER_TYPES, type LedgerType, TYPE_WORDS } from "./ledger-words.ts";
import { MovementsTable } from "./MovementsTable.tsx";

const KEYS = ["type", "payment_id", "from", "to"] as const;

const TYPE_OPTIONS = [
  { value: "", label: "Any event" },
  ...LEDGER_TYPES.map((value) => ({ value, label: TYPE_WORDS[value] })),
];

type Draft = { payment_id: string; from: string; to: string };

/**
 * The books' movements, newest first: filtered by event, payment and days (all in the address),
 * paged by cursor, read again when an event or a settling refund changes them, and downloadable as
 * the period's CSV.
 */
export function Movements({ settling }: { settling: boolean }) {
  const client = useClient();
  const appId = useAppId();
  const { session } = useSession();
  const { filters, set, clear, active } = useUrlFilters(KEYS);
  const pages = useCursorPages();
  const { setDraft, draft, field } = useDraft<Draft>(() => ({
    payment_id: filters.payment_id ?? "",
    from: filters.from ?? "",
    to: filters.to ?? "",
  }));
  const [downloading, setDownloading] = useState(false);
  const period = {
    from: filters.from ? startOfDay(filters.from) : undefined,
    to: filters.to ? endOfDay(filters.to) : undefined,
  };
  const fallback = useFallbackInterval();
  const entries = useQuery({
    queryKey: ["balance-transactions", appId, { ...filters, cursor: pages.cursor }],
    queryFn: () =>
      client.ledger
        .listBalanceTransactions(appId, {
          limit: 25,
          type: filters.type as LedgerType | undefined,
          payment_id: filters.payment_id,
          "created[gte]": period.from,
          "created[lte]": period.to,
        })
        .page(pageQuery(pages.cursor)),
    placeholderData: keepPreviousData,
    refetchInterval: pages.cursor === undefined ? (settling ? FALLBACK_POLL_MS : fallback) : false,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    pages.reset();
    set({ payment_id: draft.payment_id.trim(), from: draft.from, to: draft.to });
  };
  const download = async () => {
    setDownloading(true);
    try {
      await downloadLedgerCsv(session?.token, appId, period);
    } catch (error) {
      notifications.show({ color: "red", message: describeError(error).detail });
    } finally {
      setDownloading(false);
    }
  };
  return (
    <Stack component="section" aria-labelledby="movements-title">
      <Group justify="space-between">
        <Title order={2} size="h3" id="movements-title">
          Movements
        </Title>
        <Button variant="default" onClick={() => void download()} loading={downloading}>
          Download CSV
        </Button>
      </Group>
      <form onSubmit={submit} aria-label="Filter movements">
        <Stack gap="xs">
          <Group align="flex-end" wrap="wrap">
            <FilterSelect
              label="Event"
              data={TYPE_OPTIONS}
              value={filters.type}
              onPick={(type) => {
                pages.reset();
                set({ type });
              }}
              w={{ base: "100%", xs: 200 }}
            />
            <TextInput
              label="Payment id"
              placeholder="pay_…"
              style={{ flex: 1, minWidth: 200 }}
              {...field("payment_id")}
            />
          </Group>
          <Group align="flex-end" wrap="wrap">
            <TextInput label="From" type="date" w={170} {...field("from")} />
            <TextInput label="To" type="date" w={170} {...field("to")} />
            <FilterButtons
              label="Apply"
              active={active}
              onClear={() => {
                setDraft({ payment_id: "", from: "", to: "" });
                pages.reset();
                clear();
              }}
            />
          </Group>
          <Text size="xs" c="dimmed">
            Days are in your time zone. The CSV holds every movement of the chosen days (all of them without
            days), whatever the event and payment filters; its times are UTC.
          </Text>
        </Stack>
      </form>
      <PageState
        query={entries}
        empty={active ? "No movement matches these filters" : "No money has moved yet"}
        isEmpty={(page) => page.data.length === 0}
      >
        {(page) => (
          <Stack>
            <MovementsTable entries={page.data} caption="Movements, newest first" />
            <Pager pages={pages} label="Movements" page={page} />
          </Stack>
        )}
      </PageState>
    </Stack>
  );
}
