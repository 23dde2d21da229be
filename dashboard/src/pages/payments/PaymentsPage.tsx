import { Anchor, Button, Group, Stack, Text, TextInput, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { describeError, useAppId, useClient } from "../../api.tsx";
import { FilterButtons, FilterSelect, useDraft } from "../../components/filter-bar.tsx";
import { useFallbackInterval } from "../../components/live-events.tsx";
import { PageState } from "../../components/PageState.tsx";
import { EXPORT_LIMIT, exportCsv, type Filters, listQuery, searchProblem, useFilters } from "./filters.ts";
import { PaymentsTable } from "./PaymentsTable.tsx";
import { Pager, pageQuery, useCursorPages } from "./paging.tsx";
import { type PaymentStatus, STATUSES } from "./status.ts";

const STATUS_OPTIONS = [
  { value: "", label: "Any status" },
  ...STATUSES.map((value) => ({ value, label: value })),
];

/** The form's own copy of the filters: applied (to the address, then the server) on "Search". */
type Draft = Required<Pick<Filters, "q" | "min" | "max" | "currency" | "from" | "to">>;

const draftOf = (filters: Filters): Draft => ({
  q: filters.q ?? "",
  min: filters.min ?? "",
  max: filters.max ?? "",
  currency: filters.currency ?? "",
  from: filters.from ?? "",
  to: filters.to ?? "",
});

export function PaymentsPage() {
  const { filters, set } = useFilters();
  const pages = useCursorPages();
  const client = useClient();
  const appId = useAppId();
  const { draft, setDraft, field } = useDraft<Draft>(() => draftOf(filters));
  const [problem, setProblem] = useState<string | null>(null);
  const [exporting, setExporting] = useState(false);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const q = draft.q.trim();
    const wrong = searchProblem(q);
    setProblem(wrong);
    if (wrong) return;
    pages.reset();
    set({ ...draft, q });
  };
  const clear = () => {
    setDraft(draftOf({}));
    setProblem(null);
    pages.reset();
    set({ q: "", min: "", max: "", currency: "", from: "", to: "", price_id: "", status: undefined });
  };
  const download = async () => {
    setExporting(true);
    try {
      const text = await exportCsv(client, appId, filters);
      const link = document.createElement("a");
      link.href = URL.createObjectURL(new Blob([text], { type: "text/csv" }));
      link.download = `payments-${appId}.csv`;
      link.click();
      URL.revokeObjectURL(link.href);
    } catch (error) {
      notifications.show({ color: "red", message: describeError(error).detail });
    } finally {
      setExporting(false);
    }
  };
  const filtered = Object.keys(filters).length > 0;

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>Payments</Title>
        <Button variant="default" onClick={() => void download()} loading={exporting}>
          Export CSV
        </Button>
      </Group>
      <form onSubmit={submit} aria-label="Find payments">
        <Stack gap="xs">
          <Group align="flex-end" wrap="wrap">
            <FilterSelect
              label="Status"
              data={STATUS_OPTIONS}
              value={filters.status}
              onPick={(status) => {
                pages.reset();
                set({ status: status as PaymentStatus | undefined });
              }}
              w={{ base: "100%", xs: 200 }}
            />
            <TextInput
              label="Search by payment id or email"
              description="An id's first characters, or part of the shopper's email"
              placeholder="pay_01… or @example.com"
              error={problem}
              style={{ flex: 1, minWidth: 220 }}
              {...field("q")}
            />
          </Group>
          <Group align="flex-end" wrap="wrap">
            <TextInput label="Amount from" inputMode="decimal" w={120} {...field("min")} />
            <TextInput label="Amount to" inputMode="decimal" w={120} {...field("max")} />
            <TextInput label="Currency" placeholder="usd" w={90} {...field("currency")} />
            <TextInput label="Created from" type="date" w={170} {...field("from")} />
            <TextInput label="Created to" type="date" w={170} {...field("to")} />
            <FilterButtons label="Search" active={filtered} onClear={clear} />
          </Group>
          <Text size="xs" c="dimmed">
            Amounts include fees. Days are in your time zone. An export holds at most{" "}
            {EXPORT_LIMIT.toLocaleString()} payments.
          </Text>
        </Stack>
      </form>
      {filters.price_id && (
        <Group gap="xs">
          <Text size="sm">Payments of price {filters.price_id}.</Text>
          <Anchor component="button" size="sm" onClick={() => set({ price_id: undefined })}>
            Show every price
          </Anchor>
        </Group>
      )}
      <PaymentList filters={filters} pages={pages} />
    </Stack>
  );
}

function PaymentList({ filters, pages }: { filters: Filters; pages: ReturnType<typeof useCursorPages> }) {
  const client = useClient();
  const appId = useAppId();
  const query = listQuery(filters) as Parameters<typeof client.payments.list>[1];
  const payments = useQuery({
    queryKey: ["payments", appId, { ...filters, cursor: pages.cursor }],
    queryFn: () => client.payments.list(appId, { ...query, limit: 20 }).page(pageQuery(pages.cursor)),
    placeholderData: keepPreviousData,
    // Live: the app's event stream says when a payment is made or changes; polled while it is down.
    refetchInterval: useFallbackInterval(),
  });
  // A price's own payments (the price page links here) are its list, not a search.
  const filtered = Object.keys(filters).some((key) => key !== "price_id");
  return (
    <PageState
      query={payments}
      empty={filtered ? "No payment matches these filters" : "No payments yet"}
      isEmpty={(page) => page.data.length === 0}
    >
      {(page) => (
        <Stack>
          <PaymentsTable payments={page.data} />
          <Pager pages={pages} label="Payments" page={page} />
        </Stack>
      )}
    </PageState>
  );
}
