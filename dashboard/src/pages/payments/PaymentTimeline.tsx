import { Text, Timeline } from "@mantine/core";
import type { Payment } from "@payments-backend/sdk";
import { LocalTime } from "../../components/LocalTime.tsx";
import { DANGER } from "./tone.tsx";

interface Step {
  title: string;
  at?: string;
  detail?: string;
  failed?: boolean;
}

function errorOf(payment: Payment): string | undefined {
  const error = payment.transaction_response.error as { message?: unknown; code?: unknown } | null;
  if (!error) return undefined;
  return [error.code, error.message].filter((part) => typeof part === "string").join(": ") || undefined;
}

/**
 * The payment's story as its record tells it: opened, the chain call, the error if any, and
 * where it stands now.
 */
export function paymentSteps(payment: Payment): Step[] {
  const steps: Step[] = [
    { title: "Opened", at: payment.created_at, detail: `via ${payment.payment_provider}` },
  ];
  if (payment.next_action) steps.push({ title: "Waiting for the shopper's 3-D Secure step" });
  if (payment.transaction_id) {
    const { confirmed, confirmations, required_confirmations } = payment.confirmation_status;
    steps.push({
      title: confirmed ? "Contract call confirmed" : "Contract call sent",
      detail: `${confirmations} of ${required_confirmations} confirmations`,
    });
  }
  const error = errorOf(payment);
  if (error) steps.push({ title: "Error", detail: error, failed: true });
  if (payment.status !== "pending") {
    steps.push({
      title: `Now ${payment.status}`,
      at: payment.updated_at,
      failed: payment.status.startsWith("failed"),
    });
  }
  return steps;
}

export function PaymentTimeline({ payment }: { payment: Payment }) {
  const steps = paymentSteps(payment);
  return (
    <Timeline active={steps.length - 1} bulletSize={16} lineWidth={2}>
      {steps.map((step) => (
        <Timeline.Item key={step.title} title={step.title} color={step.failed ? DANGER : undefined}>
          {step.detail && (
            <Text size="sm" c={step.failed ? DANGER : "dimmed"}>
              {step.detail}
            </Text>
          )}
          {step.at && (
            <Text size="xs" c="dimmed">
              <LocalTime value={step.at} />
            </Text>
          )}
        </Timeline.Item>
      ))}
    </Timeline>
  );
}
