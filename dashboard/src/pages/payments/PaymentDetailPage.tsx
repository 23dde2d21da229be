import { Anchor, Card, Group, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import type { Payment } from "@payments-backend/sdk";
import { useQuery } from "@tanstack/react-query";
import { useRef } from "react";
import { Link, useParams } from "react-router";
import { useAppId, useClient } from "../../api.tsx";
import { LocalTime } from "../../components/LocalTime.tsx";
import { useFallbackInterval } from "../../components/live-events.tsx";
import { Money } from "../../components/Money.tsx";
import { PageState } from "../../components/PageState.tsx";
import { ChainTransaction } from "./ChainTransaction.tsx";
import { Fact } from "./Fact.tsx";
import { PaymentActions } from "./PaymentActions.tsx";
import { PaymentLedger, PaymentTransfers } from "./PaymentMoney.tsx";
import { StatusBadge } from "./PaymentsTable.tsx";
import { PaymentTimeline } from "./PaymentTimeline.tsx";
import { chargeOf, PriceItemTable } from "./PriceItemTable.tsx";
import { isMoving } from "./status.ts";

/** How often a payment that is still moving is read again: a sandbox chain confirms about once a second. */
const POLL_MS = 1500;

/** How long the page follows a payment after an action whose job has not moved it yet. */
const FOLLOW_AFTER_ACTION_MS = 60_000;

export function PaymentDetailPage() {
  const client = useClient();
  const appId = useAppId();
  const { paymentId = "" } = useParams();
  // After a refund, cancel or retry, the job it sent moves the payment later: follow it a while.
  const acted = useRef<{ status: string; until: number } | null>(null);
  // A status change comes as an event; confirmations counting up do not, so a moving payment polls.
  const fallback = useFallbackInterval();
  const payment = useQuery({
    queryKey: ["payment", appId, paymentId],
    queryFn: () => client.payments.get(appId, paymentId),
    refetchInterval: (query) => {
      const data = query.state.data;
      if (!data) return false;
      const following =
        acted.current && acted.current.status === data.status && Date.now() < acted.current.until;
      return isMoving(data) || following ? POLL_MS : fallback;
    },
  });
  const onActed = (status: string) => {
    acted.current = { status, until: Date.now() + FOLLOW_AFTER_ACTION_MS };
    void payment.refetch();
  };
  return (
    <PageState query={payment}>{(data) => <PaymentDetail payment={data} onActed={onActed} />}</PageState>
  );
}

function PaymentDetail({ payment, onActed }: { payment: Payment; onActed: (status: string) => void }) {
  return (
    <Stack>
      <Group justify="space-between" align="flex-start">
        <Stack gap={4}>
          <Anchor component={Link} to=".." relative="path" size="sm">
            ← Payments
          </Anchor>
          <Title order={1} style={{ overflowWrap: "anywhere" }}>
            Payment {payment.id}
          </Title>
          <Group gap="xs">
            <StatusBadge status={payment.status} />
            <Text fw={600}>
              <Money amount={payment.final_amount} currency={payment.price_item.currency} />
            </Text>
            {payment.amount_refunded > 0 && payment.status !== "refunded" && (
              <Text size="sm" c="dimmed">
                (<Money amount={payment.amount_refunded} currency={payment.price_item.currency} /> refunded)
              </Text>
            )}
          </Group>
        </Stack>
        <PaymentActions payment={payment} onActed={onActed} />
      </Group>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Card withBorder>
          <Title order={2} size="h4" mb="sm">
            Details
          </Title>
          <Stack gap="xs">
            <Fact label="Price">
              <Anchor component={Link} to={`../../prices/${payment.price.id}`} relative="path">
                {payment.price.name}
              </Anchor>
            </Fact>
            <Fact label="Shopper">{payment.shopper_email ?? "none"}</Fact>
            <Fact label="Method">{payment.payment_provider === "card" ? "Card" : "Bank debit"}</Fact>
            <Fact label="Created">
              <LocalTime value={payment.created_at} />
            </Fact>
            <Fact label="Updated">
              <LocalTime value={payment.updated_at} />
            </Fact>
          </Stack>
        </Card>
        <Card withBorder>
          <Title order={2} size="h4" mb="sm">
            Timeline
          </Title>
          <PaymentTimeline payment={payment} />
        </Card>
        <Card withBorder>
          <Title order={2} size="h4" mb="sm">
            Charge breakdown
          </Title>
          <PriceItemTable
            item={payment.price_item}
            caption="Fixed when the payment was opened"
            charge={chargeOf(payment.status)}
          />
        </Card>
        <Card withBorder>
          <Title order={2} size="h4" mb="sm">
            Chain transaction
          </Title>
          <ChainTransaction payment={payment} />
        </Card>
        <Card withBorder>
          <Title order={2} size="h4" mb="sm">
            Seller transfers
          </Title>
          <PaymentTransfers payment={payment} />
        </Card>
      </SimpleGrid>
      <Card withBorder>
        <Title order={2} size="h4" mb="sm">
          Ledger
        </Title>
        <PaymentLedger payment={payment} />
      </Card>
    </Stack>
  );
}
