import { Anchor, Group, Progress, Stack, Text } from "@mantine/core";
import type { Payment } from "@payments-backend/sdk";
import { CopyField } from "../../components/CopyField.tsx";
import { ToneBadge } from "./tone.tsx";

/** The contract call a payment ran: its transaction, explorer link and confirmations so far. */
export function ChainTransaction({ payment }: { payment: Payment }) {
  const { confirmed, confirmations, required_confirmations, progress, average_seconds } =
    payment.confirmation_status;
  if (!payment.transaction_id) {
    return (
      <Text size="sm" c="dimmed">
        {payment.price.trigger_id
          ? "Not sent yet: the contract call runs once the payment is held."
          : "This payment's price runs no contract call."}
      </Text>
    );
  }
  return (
    <Stack gap="sm">
      <CopyField label="Transaction" value={payment.transaction_id} />
      {payment.transaction_url && (
        <Anchor href={payment.transaction_url} target="_blank" rel="noreferrer" size="sm">
          View in the explorer
        </Anchor>
      )}
      <Group justify="space-between">
        <Text size="sm" aria-live="polite">
          {confirmations} of {required_confirmations} confirmations
        </Text>
        <ToneBadge tone={confirmed ? "success" : "warning"}>
          {confirmed ? "confirmed" : "confirming"}
        </ToneBadge>
      </Group>
      <Progress.Root size="lg">
        <Progress.Section
          value={progress}
          aria-label="Confirmation progress"
          color={confirmed ? "green" : "blue"}
        />
      </Progress.Root>
      {!confirmed && average_seconds > 0 && (
        <Text size="xs" c="dimmed">
          This chain confirms in about {average_seconds} seconds.
        </Text>
      )}
    </Stack>
  );
}
