import { Anchor, Group, Paper, Stack, Table, Text } from "@mantine/core";
import { useMediaQuery } from "@mantine/hooks";
import type { Payment } from "@payments-backend/sdk";
import { Link } from "react-router";
import { LocalTime } from "../../components/LocalTime.tsx";
import { Money } from "../../components/Money.tsx";
import { STATUS_TONES } from "./status.ts";
import { ToneBadge } from "./tone.tsx";

export function StatusBadge({ status }: { status: Payment["status"] }) {
  return <ToneBadge tone={STATUS_TONES[status]}>{status}</ToneBadge>;
}

/** Under this width a row of six columns cannot be read: each payment becomes a card. */
export const NARROW = "(max-width: 600px)";

/** A payment on a phone: id, amount, status and date first, each readable without scrolling. */
function PaymentCard({ payment }: { payment: Payment }) {
  return (
    <Paper withBorder p="sm" component="article" aria-label={`Payment ${payment.id}`}>
      <Stack gap={4}>
        <Group justify="space-between" wrap="nowrap">
          <Text fw={600}>
            <Money amount={payment.final_amount} currency={payment.price_item.currency} />
          </Text>
          <StatusBadge status={payment.status} />
        </Group>
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
      </Stack>
    </Paper>
  );
}

export function PaymentsTable({ payments }: { payments: Payment[] }) {
  const narrow = useMediaQuery(NARROW);
  if (narrow) {
    return (
      <Stack gap="xs">
        {payments.map((payment) => (
          <PaymentCard key={payment.id} payment={payment} />
        ))}
      </Stack>
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
