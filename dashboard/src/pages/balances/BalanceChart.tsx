import { LineChart } from "@mantine/charts";
import "@mantine/charts/styles.css";
import { Card, Group, SegmentedControl, Stack, Text, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useAppId, useClient } from "../../api.tsx";
import { formatMoney } from "../../components/Money.tsx";
import { PageState } from "../../components/PageState.tsx";
import { useUrlFilters } from "../../components/url-filters.ts";

const RANGES = [
  { value: "30", label: "30 days" },
  { value: "90", label: "90 days" },
  { value: "365", label: "1 year" },
];

/** A UTC day (`2026-11-24`) as a short label; read at noon UTC so no zone moves it a day. */
const shortDay = (date: string) =>
  new Date(`${date}T12:00:00Z`).toLocaleDateString(undefined, {
    month: "short",
    day: "numeric",
    timeZone: "UTC",
  });

/**
 * Each UTC day's closing balances (`GET /balances/{app_id}/history`), one currency at a time: the
 * service sums the books per day, so the page draws a year from a few hundred numbers. The chart
 * is Mantine's (Recharts), the same the overview draws with, fetched only with this page.
 */
export function BalanceChart({ currencies }: { currencies: string[] }) {
  const client = useClient();
  const appId = useAppId();
  const { filters, set } = useUrlFilters(["days", "currency"] as const);
  const days = RANGES.some((range) => range.value === filters.days) ? Number(filters.days) : 30;
  const currency =
    filters.currency && currencies.includes(filters.currency) ? filters.currency : (currencies[0] ?? "usd");
  const history = useQuery({
    queryKey: ["balance-history", appId, days],
    queryFn: () => client.ledger.getBalanceHistory(appId, { days }),
  });
  return (
    <Card withBorder component="section" aria-labelledby="balance-chart-title">
      <Stack>
        <Group justify="space-between" wrap="wrap">
          <Title order={2} size="h4" id="balance-chart-title">
            Balance over time
          </Title>
          <Group gap="xs" wrap="wrap">
            {currencies.length > 1 && (
              <SegmentedControl
                aria-label="Currency"
                size="xs"
                value={currency}
                onChange={(value) => set({ currency: value })}
                data={currencies.map((code) => ({ value: code, label: code.toUpperCase() }))}
              />
            )}
            <SegmentedControl
              aria-label="Period"
              size="xs"
              value={String(days)}
              onChange={(value) => set({ days: value === "30" ? undefined : value })}
              data={RANGES}
            />
          </Group>
        </Group>
        <PageState query={history}>
          {(answer) => {
            const series = answer.currencies.find((each) => each.currency === currency)?.days ?? [];
            // Keys without spaces: Recharts names each area's gradient after its key.
            const data = series.map((day) => ({
              day: shortDay(day.date),
              available: Number(day.available),
              pending: Number(day.pending),
              owed: Number(day.owed_to_sellers),
            }));
            const first = series[0];
            const last = series.at(-1);
            return (
              <Stack gap="xs">
                {/* Lines, not Mantine's AreaChart: that one wraps each area in a fragment, which
                    Recharts 2 cannot see through under React 19, and draws nothing. */}
                <LineChart
                  h={240}
                  data={data}
                  dataKey="day"
                  curveType="linear"
                  withDots={false}
                  series={[
                    { name: "available", label: "Available", color: "brand.6" },
                    { name: "pending", label: "Pending", color: "yellow.7" },
                    { name: "owed", label: "Owed to sellers", color: "gray.6" },
                  ]}
                  valueFormatter={(value) => formatMoney(value, currency)}
                  yAxisProps={{ width: 90 }}
                  withLegend
                />
                {first && last && (
                  <Text size="sm" c="dimmed">
                    Available went from {formatMoney(first.available, currency)} at the end of{" "}
                    {shortDay(first.date)} to {formatMoney(last.available, currency)} now. Days are UTC days;
                    each point is the balance at the day's end.
                  </Text>
                )}
              </Stack>
            );
          }}
        </PageState>
      </Stack>
    </Card>
  );
}
