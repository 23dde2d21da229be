import { Group } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import type { Payment } from "@payments-backend/sdk";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useAppId, useClient } from "../../api.tsx";
import { ConfirmAction } from "../../components/ConfirmAction.tsx";
import { StaleError } from "../../components/errors.ts";
import { RefundAction } from "./RefundAction.tsx";
import { ACTIONS } from "./status.ts";
import { DANGER } from "./tone.tsx";

/** Refund has its own dialog (RefundAction): an amount to choose, not only a yes. */
type Action = Exclude<keyof typeof ACTIONS, "refund">;

const PAST: Record<Action, string> = { cancel: "cancelled", retry: "retried" };

const WORDING: Record<
  Action,
  { label: string; title: string; message: string; done: string; color: string; dismiss?: string }
> = {
  cancel: {
    label: "Cancel payment",
    dismiss: "Keep payment",
    title: "Cancel this payment?",
    message: "A pending payment stops here; a card hold is released and nothing is charged.",
    done: "Payment cancelled",
    color: DANGER,
  },
  retry: {
    label: "Retry",
    title: "Retry the failed step?",
    message:
      "The contract call (failed-captured) or the seller's transfer (failed-transfers) runs again now; a payment whose call the chain refused (failed) is reopened for the shopper to pay again.",
    done: "Retry started",
    color: "brand",
  },
};

/**
 * Cancel only while the API says the payment is `cancelable`: once its contract call is signed the
 * chain's outcome decides. Retry of a `failed` payment only when its contract call was refused
 * (`transaction_response.error.retryable`): retry reopens it for the shopper to pay again.
 */
function isOffered(action: Action, payment: Payment): boolean {
  if (action === "cancel") return payment.cancelable !== false;
  if (action === "retry" && payment.status === "failed") {
    return (payment.transaction_response.error as { retryable?: unknown } | null)?.retryable === true;
  }
  return true;
}

/**
 * Refund (with its amount), cancel and retry, each behind a confirmation, offered only in the statuses that take
 * them. `onActed` lets the page follow the payment until the job the action started has moved it.
 */
export function PaymentActions({
  payment,
  onActed,
}: {
  payment: Payment;
  onActed: (status: string) => void;
}) {
  const client = useClient();
  const appId = useAppId();
  const queryClient = useQueryClient();
  const act = useMutation({
    mutationFn: async (action: Action) => {
      // Never act on a stale page: read the payment again first, and say plainly if it moved.
      const fresh = await client.payments.get(appId, payment.id);
      if (!ACTIONS[action].has(fresh.status)) {
        queryClient.setQueryData(["payment", appId, payment.id], fresh);
        throw new StaleError(
          `This payment is now ${fresh.status} (it changed since the page showed it), so it can no longer be ${PAST[action]}.`,
        );
      }
      if (action === "cancel") return client.payments.cancel(appId, payment.id);
      return client.payments.retry(appId, payment.id);
    },
    onSuccess: (updated, action) => {
      notifications.show({ color: "green", message: WORDING[action].done });
      queryClient.setQueryData(["payment", appId, payment.id], updated);
      void queryClient.invalidateQueries({ queryKey: ["payments", appId] });
      onActed(updated.status);
    },
  });
  const offered = (Object.keys(WORDING) as Action[]).filter(
    (action) => ACTIONS[action].has(payment.status) && isOffered(action, payment),
  );
  const refundable = ACTIONS.refund.has(payment.status);
  if (offered.length === 0 && !refundable) return null;
  return (
    <Group gap="xs">
      {refundable && (
        <RefundAction
          payment={payment}
          onChanged={(changed, refunded) => {
            queryClient.setQueryData(["payment", appId, payment.id], changed);
            if (!refunded) return;
            notifications.show({ color: "green", message: "Refund under way" });
            void queryClient.invalidateQueries({ queryKey: ["payments", appId] });
            void queryClient.invalidateQueries({ queryKey: ["balance-transactions", appId] });
            onActed(changed.status);
          }}
        />
      )}
      {offered.map((action) => (
        <ConfirmAction
          key={action}
          label={WORDING[action].label}
          title={WORDING[action].title}
          color={WORDING[action].color}
          dismissLabel={WORDING[action].dismiss}
          onConfirm={() => act.mutateAsync(action)}
        >
          {WORDING[action].message}
        </ConfirmAction>
      ))}
    </Group>
  );
}
