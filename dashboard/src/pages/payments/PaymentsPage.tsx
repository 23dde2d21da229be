import { Alert, Anchor, Button, Group, Select, Stack, Text, TextInput, Title } from "@mantine/core";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useSearchParams } from "react-router";
import { useAppId, useClient } from "../../api.tsx";
import { PageState } from "../../components/PageState.tsx";
import { PaymentsTable } from "./PaymentsTable.tsx";
import { Pager, pageQuery, useCursorPages } from "./paging.tsx";
import { EMAIL_SEARCH_DEPTH, searchKind, searchPayments } from "./search.ts";
import { type PaymentStatus, STATUSES } from "./status.ts";
import { TONES } from "./tone.tsx";

const STATUS_OPTIONS = [
  { value: "", label: "Any status" },
  ...STATUSES.map((value) => ({ value, label: value })),
];

/** The status filter, the price filter and the search live in the address, so they survive a reload. */
function useFilters() {
  const [params, setParams] = useSearchParams();
  const status = (params.get("status") || undefined) as PaymentStatus | undefined;
  const search = params.get("q") ?? "";
  const priceId = params.get("price_id") ?? undefined;
  const set = (name: string, value: string | undefined) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value) next.set(name, value);
        else next.delete(name);
        return next;
      },
      { replace: true },
    );
  return { status, search, priceId, set };
}

export function PaymentsPage() {
  const filters = useFilters();
  const pages = useCursorPages();
  const [term, setTerm] = useState(filters.search);
  const [termError, setTermError] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = term.trim();
    if (trimmed && searchKind(trimmed) === "invalid") {
      setTermError("Enter a payment id (pay_…) or a shopper's email");
      return;
    }
    setTermError(null);
    pages.reset();
    filters.set("q", trimmed);
  };

  return (
    <Stack>
      <Title order={1}>Payments</Title>
      <form onSubmit={submit} aria-label="Find payments">
        <Group align="flex-end" wrap="wrap">
          <Select
            label="Status"
            data={STATUS_OPTIONS}
            value={filters.status ?? ""}
            onChange={(value) => {
              pages.reset();
              filters.set("status", value || undefined);
            }}
            allowDeselect={false}
            w={{ base: "100%", xs: 200 }}
          />
          <TextInput
            label="Search by payment id or email"
            placeholder="pay_… or shopper@example.com"
            value={term}
            onChange={(event) => setTerm(event.currentTarget.value)}
            error={termError}
            style={{ flex: 1, minWidth: 220 }}
          />
          <Button type="submit" variant="light">
            Search
          </Button>
          {filters.search && (
            <Button
              variant="subtle"
              onClick={() => {
                setTerm("");
                filters.set("q", undefined);
              }}
            >
              Clear search
            </Button>
          )}
        </Group>
      </form>
      {filters.priceId && (
        <Group gap="xs">
          <Text size="sm">Payments of price {filters.priceId}.</Text>
          <Anchor component="button" size="sm" onClick={() => filters.set("price_id", undefined)}>
            Show every price
          </Anchor>
        </Group>
      )}
      {filters.search ? (
        <SearchResults term={filters.search} status={filters.status} />
      ) : (
        <PaymentList status={filters.status} priceId={filters.priceId} pages={pages} />
      )}
    </Stack>
  );
}

function PaymentList(props: {
  status: PaymentStatus | undefined;
  priceId: string | undefined;
  pages: ReturnType<typeof useCursorPages>;
}) {
  const client = useClient();
  const appId = useAppId();
  const { status, priceId, pages } = props;
  const payments = useQuery({
    queryKey: ["payments", appId, { status, priceId, cursor: pages.cursor }],
    queryFn: () =>
      client.payments.list(appId, { status, price_id: priceId, limit: 20 }).page(pageQuery(pages.cursor)),
    placeholderData: keepPreviousData,
  });
  return (
    <PageState
      query={payments}
      empty={status ? `No ${status} payments` : "No payments yet"}
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

function SearchResults({ term, status }: { term: string; status: PaymentStatus | undefined }) {
  const client = useClient();
  const appId = useAppId();
  const results = useQuery({
    queryKey: ["payments", appId, { search: term, status }],
    queryFn: () => searchPayments(client, appId, term, status),
  });
  return (
    <PageState
      query={results}
      empty={`No payment matches ${term}`}
      isEmpty={(answer) => answer.payments.length === 0}
    >
      {(answer) => (
        <Stack>
          {!answer.exhaustive && (
            <Alert color={TONES.info.text}>
              Searched the newest {EMAIL_SEARCH_DEPTH} payments; filter by status to reach older ones.
            </Alert>
          )}
          <PaymentsTable payments={answer.payments} />
        </Stack>
      )}
    </PageState>
  );
}
