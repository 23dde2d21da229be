import { Anchor, Group, Paper, Stack, Text } from "@mantine/core";
import type { Payment } from "@payments-backend/sdk";
import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { useAppId, useClient } from "../../api.tsx";
import { LocalTime } from "../../components/LocalTime.tsx";
import { FALLBACK_POLL_MS, useFallbackInterval } from "../../components/live-events.tsx";
import { Money } from "../../components/Money.tsx";
import { PageState } from "../../components/PageState.tsx";
import { MovementsTable } from "../balances/MovementsTable.tsx";
import { Fact } from "./Fact.tsx";
import { type Tone, ToneBadge } from "./tone.tsx";

type Transfer = Payment["transfers"][number];

const TRANSFER_TONES: Record<Transfer["status"], Tone> = {
  paid: "success",
  partially_reversed: "warning",
  reversed: "neutral",
};

const TRANSFER_WORDS: Record<Transfer["status"], string> = {
  paid: "paid",
  partially_reversed: "partly reversed",
  reversed: "reversed",
};

/** One seller transfer and each reversal a refund (or a bank return) took back from it. */
function TransferItem({ transfer }: { transfer: Transfer }) {
  const appId = useAppId();
  return (
    <Paper withBorder p="sm" component="article" aria-label={`Transfer ${transfer.id}`}>
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap">
          <Text fw={600}>
            <Money amount={transfer.amount} currency={transfer.currency} />
          </Text>
          <ToneBadge tone={TRANSFER_TONES[transfer.status]}>{TRANSFER_WORDS[transfer.status]}</ToneBadge>
        </Group>
        <Fact label="Transfer">
          <Text span ff="monospace" size="sm">
            {transfer.id}
          </Text>
        </Fact>
        <Fact label="Seller">
          {transfer.kyc_id ? (
            <Anchor component={Link} to={`/apps/${appId}/sellers`} ff="monospace" size="sm">
              {transfer.kyc_id}
            </Anchor>
          ) : (
            "the app"
          )}
        </Fact>
        <Fact label="Sent">
          <LocalTime value={transfer.created_at} />
        </Fact>
        {transfer.reversals.map((reversal) => (
          <Fact key={reversal.id} label="Reversed">
            <Money amount={-reversal.amount} currency={transfer.currency} /> ·{" "}
            <Text span ff="monospace" size="sm">
              {reversal.id}
            </Text>{" "}
            · <LocalTime value={reversal.created_at} />
          </Fact>
        ))}
        {transfer.amount_reversed > 0 && (
          <Text size="xs" c="dimmed">
            The seller keeps{" "}
            <Money amount={transfer.amount - transfer.amount_reversed} currency={transfer.currency} />.
          </Text>
        )}
      </Stack>
    </Paper>
  );
}

/** The seller's transfers and their reversals, as the books record them (`payment.transfers`). */
export function PaymentTransfers({ payment }: { payment: Payment }) {
  if (payment.transfers.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {payment.price_item.amount_seller > 0 && payment.status !== "paid"
          ? "No transfer yet: the seller's share is sent once the payment is captured and its contract call done."
          : "No seller transfer: this payment's seller share stays with the app, or nothing was captured."}
      </Text>
    );
  }
  return (
    <Stack gap="xs">
      {payment.transfers.map((transfer) => (
        <TransferItem key={transfer.id} transfer={transfer} />
      ))}
    </Stack>
  );
}

/** How long after a payment changed its books may still get lines of their own (settlement, reversal). */
const SETTLING_MS = 60_000;

/**
 * The payment's lines in the app's books (`GET /balance-transactions?payment_id=`): every hold,
 * capture, transfer, refund and reversal, each account's side of it. Read again whenever the
 * payment changes (its `updated_at` is in the key); and for a minute after, since a refund's
 * provider settlement and the transfers' reversal land later, announced by no event.
 */
export function PaymentLedger({ payment }: { payment: Payment }) {
  const client = useClient();
  const appId = useAppId();
  const fallback = useFallbackInterval();
  const lines = useQuery({
    queryKey: ["balance-transactions", appId, "payment", payment.id, payment.updated_at],
    queryFn: () =>
      client.ledger.listBalanceTransactions(appId, { payment_id: payment.id, limit: 100 }).toArray(500),
    refetchInterval: () =>
      Date.now() - Date.parse(payment.updated_at) < SETTLING_MS ? FALLBACK_POLL_MS : fallback,
  });
  return (
    <Stack gap="xs">
      {payment.amount_refunded > 0 && (
        <Text size="sm">
          Refunded so far: <Money amount={payment.amount_refunded} currency={payment.price_item.currency} />{" "}
          of <Money amount={payment.final_amount} currency={payment.price_item.currency} />.
        </Text>
      )}
      <PageState query={lines} empty="Nothing in the books yet: a payment is booked once its card is held.">
        {(entries) => (
          <MovementsTable
            entries={entries}
            caption="This payment in the books, newest first"
            withPayment={false}
          />
        )}
      </PageState>
      <Anchor component={Link} to={`/apps/${appId}/balances`} size="sm">
        All balances and movements
      </Anchor>
    </Stack>
  );
}
