import { Table, Text } from "@mantine/core";
import type { Schemas } from "@payments-backend/sdk";
import type { ReactNode } from "react";
import { Money } from "../../components/Money.tsx";

type PriceItem = Schemas["PriceItem"];

// The price_item's fee rates are percents (2.9 is 2.9%; docs/fees.md).
const percent = (value: number) =>
  new Intl.NumberFormat(undefined, { style: "percent", maximumFractionDigits: 4 }).format(value / 100);

/**
 * Where the money stands, so the labels never say money moved when it did not: a quote (a price's
 * preview), an open payment (nothing captured yet), a charged one, or one that ended uncharged.
 */
export type Charge = "quote" | "open" | "charged" | "not-charged";

const TOTAL_LABEL: Record<Charge, string> = {
  quote: "Total",
  open: "Total (not charged yet)",
  charged: "Charged",
  "not-charged": "Total (not charged)",
};

/** Whether a payment in this status has had its charge captured (docs/payments.md, "States"). */
export function chargeOf(status: string): Charge {
  if (status === "pending" || status === "hold") return "open";
  if (status === "failed" || status === "cancelled") return "not-charged";
  return "charged";
}

/**
 * How a payment's charge splits (docs/fees.md): what the shopper pays, the provider's fee, and the
 * platform's, the app's and the seller's shares, all in the charge currency. Until a charge is
 * captured the shares are what it would split into, and the table says so.
 */
export function PriceItemTable({
  item,
  caption,
  charge = "quote",
}: {
  item: PriceItem;
  caption: string;
  charge?: Charge;
}) {
  const moved = charge === "charged";
  const share = (label: string) => (moved ? label : `${label} (if charged)`);
  const rows: [string, number, ReactNode?][] = [
    ["Price", item.amount],
    ["Fees added", item.amount_transaction_fee],
    [TOTAL_LABEL[charge], item.amount_total, moved ? "incl. fees" : "incl. fees; no money has moved"],
    [
      share("Provider fee"),
      item.processing_fee_amount,
      <>
        {percent(item.provider_processing_fee_percent)}, at least{" "}
        <Money amount={item.provider_min_amount_fee} currency={item.currency} />
      </>,
    ],
    [share("Platform share"), item.amount_platform, `${percent(item.platform_fee)} of the price`],
    [share("App share"), item.amount_app, `${percent(item.app_fee)} of the price (${item.app_type} app)`],
    [share("Seller share"), item.amount_seller],
  ];
  return (
    <Table>
      <Table.Caption>{caption}</Table.Caption>
      <Table.Tbody>
        {rows.map(([label, amount, note]) => (
          <Table.Tr key={label}>
            <Table.Th scope="row">{label}</Table.Th>
            <Table.Td ta="right">
              <Money amount={amount} currency={item.currency} />
              {note && (
                <Text size="xs" c="dimmed">
                  {note}
                </Text>
              )}
            </Table.Td>
          </Table.Tr>
        ))}
        {item.conversion && (
          <Table.Tr>
            <Table.Th scope="row">Converted from</Table.Th>
            <Table.Td ta="right">
              <Money amount={item.conversion.amount} currency={item.conversion.currency} />
              <Text size="xs" c="dimmed">
                at {item.conversion.exchange} {item.currency.toUpperCase()} per{" "}
                {item.conversion.currency.toUpperCase()}
              </Text>
            </Table.Td>
          </Table.Tr>
        )}
      </Table.Tbody>
    </Table>
  );
}
