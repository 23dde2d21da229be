import { Paper, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import type { Schemas } from "@payments-backend/sdk";
import { useQuery } from "@tanstack/react-query";
import { useAppId, useClient } from "../../api.tsx";
import { LocalTime } from "../../components/LocalTime.tsx";
import { FALLBACK_POLL_MS, useFallbackInterval } from "../../components/live-events.tsx";
import { Money } from "../../components/Money.tsx";
import { PageState } from "../../components/PageState.tsx";
import { useApp } from "../apps/queries.ts";
import { Fact } from "../payments/Fact.tsx";
import { BalanceChart } from "./BalanceChart.tsx";
import { Movements } from "./Movements.tsx";
import { Reconciliation } from "./Reconciliation.tsx";

type Balance = Schemas["Balance"];

/** One currency's balance as the books answer it (`GET /balances`): available first and large. */
/** Whether a refund asked for is not made yet in some currency: its settlement comes with no event. */
function settling(answer: { balances: Balance[] } | undefined): boolean {
  return answer?.balances.some((balance) => Number(balance.refunds_in_flight) !== 0) ?? false;
}

function BalanceCard({ balance }: { balance: Balance }) {
  const code = balance.currency.toUpperCase();
  const money = (amount: string) => <Money amount={amount} currency={balance.currency} />;
  return (
    <Paper withBorder p="md" component="section" aria-label={`Balance in ${code}`}>
      <Stack gap="xs">
        <Title order={2} size="h4">
          {code}
        </Title>
        <div>
          <Text size="sm" c="dimmed">
            Available
          </Text>
          <Text fz="xl" fw={700}>
            {money(balance.available)}
          </Text>
          <Text size="xs" c="dimmed">
            The app's share of captured payments, less what refunds took back
          </Text>
        </div>
        <Fact label="Pending (held on cards)">{money(balance.pending)}</Fact>
        <Fact label="Owed to sellers">{money(balance.owed_to_sellers)}</Fact>
        <Fact label="Paid to sellers">{money(balance.paid_to_sellers)}</Fact>
        <Fact label="Refunds in flight">{money(balance.refunds_in_flight)}</Fact>
        <Fact label="Refunded">{money(balance.refunded)}</Fact>
        <Fact label="Platform fees">{money(balance.platform_fees)}</Fact>
        <Fact label="Provider fees">{money(balance.provider_fees)}</Fact>
      </Stack>
    </Paper>
  );
}

/**
 * The app's money from its books: each currency's balances, a chart of them over time, the latest
 * reconciliation with the provider and the chain, and every movement (filtered, paged,
 * downloadable as CSV). Read again while the tab is visible.
 */
export default function BalancesPage() {
  const client = useClient();
  const appId = useAppId();
  const app = useApp(appId);
  const fallback = useFallbackInterval();
  const balances = useQuery({
    queryKey: ["balances", appId],
    queryFn: () => client.ledger.getBalances(appId),
    // Events announce payments' moves; a refund's settlement comes without one, so follow it.
    refetchInterval: (query) => (settling(query.state.data) ? FALLBACK_POLL_MS : fallback),
  });
  return (
    <Stack gap="lg">
      <Title order={1}>Balances</Title>
      <PageState
        query={balances}
        isEmpty={(answer) => answer.balances.length === 0}
        empty="No money has moved yet: balances appear once a payment is held or captured."
      >
        {(answer) => (
          <Stack gap="lg">
            <Text size="sm" c="dimmed">
              From the app's books, as of <LocalTime value={answer.as_of} />.
            </Text>
            <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
              {answer.balances.map((balance) => (
                <BalanceCard key={balance.currency} balance={balance} />
              ))}
            </SimpleGrid>
            <BalanceChart currencies={answer.balances.map((balance) => balance.currency)} />
          </Stack>
        )}
      </PageState>
      <Reconciliation canRun={app.data?.permissions.can_edit ?? false} />
      <Movements settling={settling(balances.data)} />
    </Stack>
  );
}
