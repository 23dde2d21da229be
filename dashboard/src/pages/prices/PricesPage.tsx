import { Anchor, Card, Stack, Table, Text, Title } from "@mantine/core";
import type { Price } from "@payments-backend/sdk";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { useAppId, useClient } from "../../api.tsx";
import { LocalTime } from "../../components/LocalTime.tsx";
import { Money } from "../../components/Money.tsx";
import { PageState } from "../../components/PageState.tsx";
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

function PricesTable({ prices }: { prices: Price[] }) {
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table striped highlightOnHover>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th>Amount</Table.Th>
            <Table.Th>Type</Table.Th>
            <Table.Th>Views</Table.Th>
            <Table.Th>Created</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {prices.map((price) => (
            <Table.Tr key={price.id}>
              <Table.Td>
                <Anchor component={Link} to={price.id}>
                  {price.name}
                </Anchor>
                {price.expired && (
                  <Text span ml="xs">
                    <ToneBadge tone="neutral">expired</ToneBadge>
                  </Text>
                )}
              </Table.Td>
              <Table.Td>
                <Money amount={price.amount_decimal} currency={price.currency} />
                {price.type === "dynamic" && (
                  <Text span size="xs" c="dimmed">
                    {" "}
                    or more
                  </Text>
                )}
              </Table.Td>
              <Table.Td>{price.type}</Table.Td>
              <Table.Td>{price.views}</Table.Td>
              <Table.Td>
                <LocalTime value={price.created_at} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
