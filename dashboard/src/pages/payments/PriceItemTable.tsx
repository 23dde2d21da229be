import { Table, Text } from "@mantine/core";
import type { Schemas } from "@payments-backend/sdk";
import type { ReactNode } from "react";
import { Money } from "../../components/Money.tsx";

type PriceItem = Schemas["PriceItem"];

// The price_item's fee rates are percents (2.9 is 2.9%; docs/fees.md).
const percent = (value: number) =>
  new Intl.NumberFormat(undefined, { style: "percent", maximumFractionDigits: 4 }).format(value / 100);

/**
 * How a payment's charge splits (docs/fees.md): what the shopper pays, the provider's fee, and the
 * platform's, the app's and the seller's shares, all in the charge currency.
 */
export function PriceItemTable({ item, caption }: { item: PriceItem; caption: string }) {
  const rows: [string, number, ReactNode?][] = [
    ["Price", item.amount],
    ["Fees added", item.amount_transaction_fee],
    ["Total charged", item.amount_total],
    [
      "Provider fee",
      item.processing_fee_amount,
      <>
        {percent(item.provider_processing_fee_percent)}, at least{" "}
        <Money amount={item.provider_min_amount_fee} currency={item.currency} />
      </>,
    ],
    ["Platform share", item.amount_platform, `${percent(item.platform_fee)} of the price`],
    ["App share", item.amount_app, `${percent(item.app_fee)} of the price (${item.app_type} app)`],
    ["Seller share", item.amount_seller],
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
