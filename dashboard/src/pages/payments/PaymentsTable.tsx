import { Anchor, Table, Text } from "@mantine/core";
import type { Payment } from "@payments-backend/sdk";
import { Link } from "react-router";
import { LocalTime } from "../../components/LocalTime.tsx";
import { Money } from "../../components/Money.tsx";
import { CardStack, RecordCard, useNarrow } from "../../components/RecordList.tsx";
import { STATUS_TONES } from "./status.ts";
import { ToneBadge } from "./tone.tsx";

export function StatusBadge({ status }: { status: Payment["status"] }) {
  return <ToneBadge tone={STATUS_TONES[status]}>{status}</ToneBadge>;
}

/** A payment on a phone: id, amount, status and date first, each readable without scrolling. */
function PaymentCard({ payment }: { payment: Payment }) {
  return (
    <RecordCard
      label={`Payment ${payment.id}`}
      title={
        <Text fw={600}>
          <Money amount={payment.final_amount} currency={payment.price_item.currency} />
        </Text>
      }
      status={<StatusBadge status={payment.status} />}
    >
      <Anchor
        component={Link}
        to={payment.id}
        ff="monospace"
        size="sm"
        style={{ overflowWrap: "anywhere", minHeight: 44, display: "flex", alignItems: "center" }}
      >
        {payment.id}
      </Anchor>
      <Text size="sm" style={{ overflowWrap: "anywhere" }}>
        {payment.price.name} · {payment.shopper_email ?? "no shopper email"}
      </Text>
      <Text size="xs" c="dimmed">
        <LocalTime value={payment.created_at} />
      </Text>
    </RecordCard>
  );
}

export function PaymentsTable({ payments }: { payments: Payment[] }) {
  if (useNarrow()) {
    return (
      <CardStack>
        {payments.map((payment) => (
          <PaymentCard key={payment.id} payment={payment} />
        ))}
      </CardStack>
    );
  }
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table striped highlightOnHover>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Payment</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Amount (incl. fees)</Table.Th>
            <Table.Th>Shopper</Table.Th>
            <Table.Th>Price</Table.Th>
            <Table.Th>Created</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {payments.map((payment) => (
            <Table.Tr key={payment.id}>
              <Table.Td>
                <Anchor component={Link} to={payment.id} ff="monospace" size="sm">
                  {payment.id}
                </Anchor>
              </Table.Td>
              <Table.Td>
                <StatusBadge status={payment.status} />
              </Table.Td>
              <Table.Td>
                <Money amount={payment.final_amount} currency={payment.price_item.currency} />
              </Table.Td>
              <Table.Td>
                {payment.shopper_email ?? (
                  <Text span c="dimmed" size="sm">
                    none
                  </Text>
                )}
              </Table.Td>
              <Table.Td>{payment.price.name}</Table.Td>
              <Table.Td>
                <LocalTime value={payment.created_at} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
