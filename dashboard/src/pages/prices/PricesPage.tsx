import { Anchor, Card, Stack, Text, Title } from "@mantine/core";
import type { Price } from "@payments-backend/sdk";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { useAppId, useClient } from "../../api.tsx";
import { LocalTime } from "../../components/LocalTime.tsx";
import { Money } from "../../components/Money.tsx";
import { PageState } from "../../components/PageState.tsx";
import { type Column, RecordList } from "../../components/RecordList.tsx";
import { Pager, pageQuery, useCursorPages } from "../payments/paging.tsx";
import { ToneBadge } from "../payments/tone.tsx";
import { CreatePriceForm } from "./CreatePriceForm.tsx";

export function PricesPage() {
  const client = useClient();
  const appId = useAppId();
  const pages = useCursorPages();
  const prices = useQuery({
    queryKey: ["prices", appId, { cursor: pages.cursor }],
    queryFn: () => client.prices.list(appId, { limit: 20 }).page(pageQuery(pages.cursor)),
    placeholderData: keepPreviousData,
  });

  return (
    <Stack>
      <Title order={1}>Prices</Title>
      <Card withBorder>
        <Title order={2} size="h4" mb="sm">
          New price
        </Title>
        <CreatePriceForm onCreated={pages.reset} />
      </Card>
      <PageState query={prices} empty="No prices yet" isEmpty={(page) => page.data.length === 0}>
        {(page) => (
          <Stack>
            <PricesTable prices={page.data} />
            <Pager pages={pages} label="Prices" page={page} />
          </Stack>
        )}
      </PageState>
    </Stack>
  );
}

const PRICE_COLUMNS: Column<Price>[] = [
  {
    header: "Name",
    place: "title",
    cell: (price) => (
      <Anchor component={Link} to={price.id}>
        {price.name}
      </Anchor>
    ),
  },
  {
    header: "Status",
    place: "status",
    cell: (price) =>
      price.expired ? (
        <ToneBadge tone="neutral">expired</ToneBadge>
      ) : (
        <ToneBadge tone="success">active</ToneBadge>
      ),
  },
  {
    header: "Amount",
    cell: (price) => (
      <>
        <Money amount={price.amount_decimal} currency={price.currency} />
        {price.type === "dynamic" && (
          <Text span size="xs" c="dimmed">
            {" "}
            or more
          </Text>
        )}
      </>
    ),
  },
  { header: "Type", cell: (price) => price.type },
  { header: "Views", cell: (price) => price.views },
  { header: "Created", cell: (price) => <LocalTime value={price.created_at} /> },
];

function PricesTable({ prices }: { prices: Price[] }) {
  return (
    <RecordList
      rows={prices}
      columns={PRICE_COLUMNS}
      rowKey={(price) => price.id}
      cardLabel={(price) => `Price ${price.name}`}
      minWidth={560}
    />
  );
}
