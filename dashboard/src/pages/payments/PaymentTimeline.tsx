import { Text, Timeline } from "@mantine/core";
import type { Payment, PaymentEvent } from "@payments-backend/sdk";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useAppId, useClient } from "../../api.tsx";
import { LocalTime } from "../../components/LocalTime.tsx";
import { PageState } from "../../components/PageState.tsx";
import { DANGER } from "./tone.tsx";

interface Step {
  key: string;
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

/** Who moved the payment, in the words of the page. */
function actorOf(actor: string): string {
  if (actor === "system") return "by the service";
  if (actor === "shopper") return "by the shopper";
  if (actor.startsWith("api_key:")) return "by an API key";
  return "by a member";
}

/**
 * The payment's story: every status change the API recorded (oldest first, who and why), then
 * what the record says is under way now (a 3-D Secure step, the chain call, the error).
 */
export function paymentSteps(payment: Payment, events: readonly PaymentEvent[]): Step[] {
  const steps: Step[] = events.map((event) => ({
    key: event.id,
    title: event.from_status === null ? `Opened as ${event.to_status}` : `Moved to ${event.to_status}`,
    at: event.created_at,
    detail: [
      event.from_status === null ? `via ${payment.payment_provider}` : null,
      event.reason,
      actorOf(event.actor),
    ]
      .filter((part) => part)
      .join(" · "),
    failed: event.to_status.startsWith("failed"),
  }));
  if (payment.next_action) steps.push({ key: "3ds", title: "Waiting for the shopper's 3-D Secure step" });
  if (payment.transaction_id) {
    const { confirmed, confirmations, required_confirmations } = payment.confirmation_status;
    steps.push({
      key: "chain",
      title: confirmed ? "Contract call confirmed" : "Contract call sent",
      detail: `${confirmations} of ${required_confirmations} confirmations`,
    });
  }
  const error = errorOf(payment);
  if (error) steps.push({ key: "error", title: "Error", detail: error, failed: true });
  return steps;
}

/** The payment's timeline, read again whenever the payment itself changes. */
export function PaymentTimeline({ payment }: { payment: Payment }) {
  const client = useClient();
  const appId = useAppId();
  const events = useQuery({
    queryKey: ["payment-events", appId, payment.id, payment.status, payment.updated_at],
    queryFn: () => client.payments.events(appId, payment.id).toArray(),
    placeholderData: keepPreviousData,
  });
  return (
    <PageState query={events} empty="No status changes recorded">
      {(data) => {
        const steps = paymentSteps(payment, data);
        return (
          <Timeline active={steps.length - 1} bulletSize={16} lineWidth={2}>
            {steps.map((step) => (
              <Timeline.Item key={step.key} title={step.title} color={step.failed ? DANGER : undefined}>
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
      }}
    </PageState>
  );
}
