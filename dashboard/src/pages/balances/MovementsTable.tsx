import { Anchor, Table, Text } from "@mantine/core";
import { Link } from "react-router";
import { useAppId } from "../../api.tsx";
import { LocalTime } from "../../components/LocalTime.tsx";
import { Money } from "../../components/Money.tsx";
import { CardStack, RecordCard, useNarrow } from "../../components/RecordList.tsx";
import { ToneBadge } from "../payments/tone.tsx";
import { accountWords, type BalanceTransaction, TYPE_TONES, TYPE_WORDS } from "./ledger-words.ts";

// Ledger entries (GET /balance-transactions) as a table, or as stacked cards on a phone: the
// amount and its event first, then the account, the payment and the time.

function Account({ account }: { account: string }) {
  return (
    <>
      <Text size="sm" style={{ overflowWrap: "anywhere" }}>
        {accountWords(account)}
      </Text>
      <Text size="xs" c="dimmed" ff="monospace" style={{ overflowWrap: "anywhere" }}>
        {account}
      </Text>
    </>
  );
}

function PaymentLink({ paymentId }: { paymentId: string | null }) {
  const appId = useAppId();
  if (!paymentId)
    return (
      <Text span c="dimmed" size="sm">
        none
      </Text>
    );
  return (
    <Anchor
      component={Link}
      to={`/apps/${appId}/payments/${paymentId}`}
      ff="monospace"
      size="sm"
      style={{ overflowWrap: "anywhere", minHeight: 44, display: "inline-flex", alignItems: "center" }}
    >
      {paymentId}
    </Anchor>
  );
}

function MovementCard({ entry, withPayment }: { entry: BalanceTransaction; withPayment: boolean }) {
  return (
    <RecordCard
      label={`Movement ${entry.id}`}
      title={
        <Text fw={600}>
          <Money amount={entry.amount} currency={entry.currency} />
        </Text>
      }
      status={<ToneBadge tone={TYPE_TONES[entry.type]}>{TYPE_WORDS[entry.type]}</ToneBadge>}
    >
      <Account account={entry.account} />
      {withPayment && <PaymentLink paymentId={entry.payment_id} />}
      {entry.reference && (
        <Text size="xs" ff="monospace" style={{ overflowWrap: "anywhere" }}>
          {entry.reference}
        </Text>
      )}
      <Text size="xs" c="dimmed">
        <LocalTime value={entry.created_at} />
      </Text>
    </RecordCard>
  );
}

export function MovementsTable({
  entries,
  caption,
  withPayment = true,
}: {
  entries: BalanceTransaction[];
  caption: string;
  /** False on a payment's own page, where every line is that payment's. */
  withPayment?: boolean;
}) {
  if (useNarrow()) {
    return (
      <CardStack label={caption}>
        {entries.map((entry) => (
          <MovementCard key={entry.id} entry={entry} withPayment={withPayment} />
        ))}
      </CardStack>
    );
  }
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table striped verticalSpacing="xs">
        <Table.Caption>{caption}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>When</Table.Th>
            <Table.Th>Event</Table.Th>
            <Table.Th>Account</Table.Th>
            <Table.Th ta="right">Amount</Table.Th>
            {withPayment && <Table.Th>Payment</Table.Th>}
            <Table.Th>Reference</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {entries.map((entry) => (
            <Table.Tr key={entry.id} data-entry-id={entry.id}>
              <Table.Td>
                <Text size="sm">
                  <LocalTime value={entry.created_at} />
                </Text>
              </Table.Td>
              {/* As wide as its words: a badge squeezed by the column would cut them short. */}
              <Table.Td style={{ minWidth: 150 }}>
                <ToneBadge tone={TYPE_TONES[entry.type]}>{TYPE_WORDS[entry.type]}</ToneBadge>
              </Table.Td>
              <Table.Td>
                <Account account={entry.account} />
              </Table.Td>
              <Table.Td ta="right">
                <Money amount={entry.amount} currency={entry.currency} />
              </Table.Td>
              {withPayment && (
                <Table.Td>
                  <PaymentLink paymentId={entry.payment_id} />
                </Table.Td>
              )}
              <Table.Td>
                <Text size="xs" ff="monospace" style={{ overflowWrap: "anywhere" }}>
                  {entry.reference ?? "—"}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
