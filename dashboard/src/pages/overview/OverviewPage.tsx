import { BarChart } from "@mantine/charts";
import "@mantine/charts/styles.css";
import { Anchor, Card, Group, Paper, SegmentedControl, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "react-router";
import { useAppId, useClient } from "../../api.tsx";
import { formatMoney } from "../../components/Money.tsx";
import { PageState } from "../../components/PageState.tsx";
import { type Overview, summarise } from "./stats.ts";

const WINDOW_DAYS = 30;
/** The overview reads at most this many payments (newest first); beyond, its figures say so. */
const MAX_PAYMENTS = 5000;

function Stat({ label, value, note }: { label: string; value: string; note?: string }) {
  return (
    <Paper withBorder p="md">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fz="xl" fw={700}>
        {value}
      </Text>
      {note && (
        <Text size="xs" c="dimmed">
          {note}
        </Text>
      )}
    </Paper>
  );
}

const shortDay = (day: string) =>
  new Date(`${day}T12:00:00`).toLocaleDateString(undefined, { month: "short", day: "numeric" });

function Charts({ overview, capped }: { overview: Overview; capped: boolean }) {
  const [currency, setCurrency] = useState(overview.currencies[0]?.currency ?? "USD");
  const perDay = overview.days.map((day) => ({
    day: shortDay(day.day),
    Payments: day.count,
    Succeeded: day.succeeded,
    Volume: day.volume[currency] ?? 0,
  }));
  const shown = overview.currencies.find((figures) => figures.currency === currency);
  const volume = shown?.volume ?? 0;
  return (
    <Stack gap="lg">
      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }}>
        <Stat label={`Payments, last ${WINDOW_DAYS} days`} value={String(overview.total)} />
        <Stat
          label="Success rate"
          value={overview.successRate === null ? "—" : `${overview.successRate}%`}
          note="Paid and kept, of the payments that finished (a refunded one is not a success)"
        />
        <Stat
          label={`Net volume in ${currency}`}
          value={formatMoney(volume, currency)}
          note="Paid payments, less what was refunded"
        />
        <Stat
          label={`Refunded in ${currency}`}
          value={formatMoney(shown?.refunded ?? 0, currency)}
          note={`${overview.refunded} refunded in full`}
        />
      </SimpleGrid>
      {capped && (
        <Text size="sm" c="dimmed">
          Figures from the newest {MAX_PAYMENTS} payments only.
        </Text>
      )}
      <Card withBorder>
        <Stack>
          <Group justify="space-between">
            <Title order={2} size="h4">
              Net volume per day
            </Title>
            {overview.currencies.length > 1 && (
              <SegmentedControl
                aria-label="Currency"
                size="xs"
                value={currency}
                onChange={setCurrency}
                data={overview.currencies.map((figures) => figures.currency)}
              />
            )}
          </Group>
          <BarChart
            h={220}
            data={perDay}
            dataKey="day"
            series={[{ name: "Volume", color: "brand.6", label: `Net volume (${currency})` }]}
            valueFormatter={(value) => formatMoney(value, currency)}
            yAxisProps={{ width: 80 }}
          />
        </Stack>
      </Card>
      <Card withBorder>
        <Stack>
          <Title order={2} size="h4">
            Payments per day
          </Title>
          <BarChart
            h={220}
            data={perDay}
            dataKey="day"
            series={[
              { name: "Payments", color: "gray.5" },
              { name: "Succeeded", color: "green.7" },
            ]}
            withLegend
          />
        </Stack>
      </Card>
      <Card withBorder>
        <Stack>
          <Title order={2} size="h4">
            By charge currency
          </Title>
          <BarChart
            h={Math.max(120, overview.currencies.length * 48)}
            orientation="vertical"
            data={overview.currencies.map((figures) => ({
              currency: figures.currency,
              Payments: figures.count,
            }))}
            dataKey="currency"
            series={[{ name: "Payments", color: "brand.6" }]}
          />
          <SimpleGrid cols={{ base: 1, sm: 3 }} component="ul" style={{ listStyle: "none", padding: 0 }}>
            {overview.currencies.map((figures) => (
              <Text component="li" key={figures.currency} size="sm">
                {figures.currency}: {figures.count} payments, {formatMoney(figures.volume, figures.currency)}{" "}
                kept, {formatMoney(figures.refunded, figures.currency)} refunded
              </Text>
            ))}
          </SimpleGrid>
        </Stack>
      </Card>
    </Stack>
  );
}

/**
 * The app at a glance: payment volume and count per day, success rate and currencies over the last
 * 30 days, computed here from the payments list (newest first, read until the window ends).
 */
export default function OverviewPage() {
  const appId = useAppId();
  const client = useClient();
  const payments = useQuery({
    queryKey: ["payments", appId, "overview"],
    queryFn: async () => {
      const since = Date.now() - WINDOW_DAYS * 24 * 3600 * 1000;
      const seen = [];
      for await (const payment of client.payments.list(appId, { limit: 100 })) {
        if (new Date(payment.created_at).getTime() < since || seen.length >= MAX_PAYMENTS) break;
        seen.push(payment);
      }
      return { overview: summarise(seen, new Date(), WINDOW_DAYS), capped: seen.length >= MAX_PAYMENTS };
    },
  });
  return (
    <Stack>
      <Title order={1}>Overview</Title>
      <PageState
        query={payments}
        isEmpty={(data) => data.overview.total === 0}
        empty={
          <>
            No payments in the last {WINDOW_DAYS} days. Create a price and share its checkout link, or{" "}
            <Anchor component={Link} to="api-keys">
              create an API key
            </Anchor>{" "}
            to take payments from your server.
          </>
        }
      >
        {(data) => <Charts overview={data.overview} capped={data.capped} />}
      </PageState>
    </Stack>
  );
}
