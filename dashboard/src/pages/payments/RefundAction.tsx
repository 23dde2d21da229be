import { Button, Text, TextInput } from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { ApiError, type Payment } from "@payments-backend/sdk";
import { useState } from "react";
import { useAppId, useClient } from "../../api.tsx";
import { StaleError } from "../../components/errors.ts";
import { FormDialog } from "../../components/FormDialog.tsx";
import { formatMoney } from "../../components/Money.tsx";
import { ACTIONS } from "./status.ts";
import { DANGER } from "./tone.tsx";

/** How many decimals an amount of this currency has (2 for USD, 0 for JPY). */
function minorDigits(currency: string): number {
  try {
    return (
      new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ??
      2
    );
  } catch {
    return 2;
  }
}

/** What is left to refund, as the decimal text the amount field starts with. */
export function remainingText(payment: Pick<Payment, "final_amount" | "amount_refunded" | "price_item">) {
  const digits = minorDigits(payment.price_item.currency.toUpperCase());
  const scale = 10 ** digits;
  const left = Math.round(payment.final_amount * scale) - Math.round(payment.amount_refunded * scale);
  return (Math.max(left, 0) / scale).toFixed(digits);
}

/** What is wrong with the amount typed, in words, or null when the service can be asked. */
function amountProblem(text: string, remaining: string): string | null {
  if (!/^\d+(\.\d+)?$/.test(text)) return "Type an amount such as 5 or 5.50";
  if (Number(text) <= 0) return "The amount must be more than zero";
  if (Number(text) > Number(remaining)) return `At most ${remaining} remains to be refunded`;
  return null;
}

/**
 * Refund, all or part: the amount starts at what remains (a partial refund is for a `paid`
 * payment; one whose contract call or transfer failed is refunded in full, as the API requires).
 * The payment is read again first, so a refund made elsewhere meanwhile is said, not repeated; a
 * 409 that still happens reads as a sentence naming what remains.
 */
export function RefundAction({
  payment,
  onChanged,
}: {
  payment: Payment;
  /** The payment as now read: `refunded` once this dialog's refund went through. */
  onChanged: (payment: Payment, refunded: boolean) => void;
}) {
  const client = useClient();
  const appId = useAppId();
  const [opened, { open, close }] = useDisclosure(false);
  const currency = payment.price_item.currency;
  const remaining = remainingText(payment);
  const partialAllowed = payment.status === "paid";
  const [amount, setAmount] = useState(remaining);
  const [reason, setReason] = useState("");
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const start = () => {
    setAmount(remaining);
    setReason("");
    setFieldError(null);
    setFailure(null);
    open();
  };
  const submit = async () => {
    const text = amount.trim();
    const wrong = partialAllowed ? amountProblem(text, remaining) : null;
    setFieldError(wrong);
    if (wrong) return;
    setBusy(true);
    setFailure(null);
    try {
      // Never act on a stale page: read the payment again, and say plainly if it moved.
      const fresh = await client.payments.get(appId, payment.id);
      if (!ACTIONS.refund.has(fresh.status) || fresh.amount_refunded !== payment.amount_refunded) {
        onChanged(fresh, false);
        throw new StaleError(
          ACTIONS.refund.has(fresh.status)
            ? `${formatMoney(fresh.amount_refunded, currency)} has been refunded by now, so ${formatMoney(remainingText(fresh), currency)} remains. Check the amount and refund again.`
            : `This payment is now ${fresh.status} (it changed since the page showed it), so it can no longer be refunded.`,
        );
      }
      const whole = !partialAllowed || text === remaining;
      const updated = await client.payments.refund(appId, payment.id, {
        // Left out, the refund is "all that remains", exactly, whatever the rounding of the text.
        ...(whole ? {} : { amount: text }),
        ...(reason.trim() ? { reason: reason.trim() } : {}),
      });
      onChanged(updated, true);
      close();
    } catch (error) {
      const left = error instanceof ApiError ? error.problem.amount_remaining : undefined;
      if (typeof left === "string") {
        setFailure(
          new StaleError(
            `Only ${formatMoney(left, currency)} of this payment remains to be refunded: part of it was refunded meanwhile.`,
          ),
        );
        setAmount(left);
        // The page shows the payment as it is now, so a second try starts from the same figures.
        await client.payments
          .get(appId, payment.id)
          .then((fresh) => onChanged(fresh, false))
          .catch(() => undefined);
      } else {
        setFailure(error);
      }
    } finally {
      setBusy(false);
    }
  };
  const label = `Refund ${formatMoney(partialAllowed ? amount || "0" : remaining, currency)}`;
  return (
    <>
      <Button variant="light" color={DANGER} onClick={start}>
        Refund
      </Button>
      <FormDialog
        opened={opened}
        title="Refund this payment"
        onSubmit={() => void submit()}
        onDismiss={close}
        busy={busy}
        error={failure}
        label={label}
        dismissLabel="Keep payment"
        color={DANGER}
      >
        <Text size="sm">
          Charged {formatMoney(payment.final_amount, currency)}
          {payment.amount_refunded > 0 &&
            `, ${formatMoney(payment.amount_refunded, currency)} refunded so far`}
          ; {formatMoney(remaining, currency)} can be refunded. A seller's transfer is reversed in proportion;
          the provider keeps its fee.
        </Text>
        <TextInput
          label={`Amount (${currency.toUpperCase()})`}
          description={
            partialAllowed
              ? "All that remains, or less for a partial refund"
              : "A payment whose contract call or transfer failed is refunded in full"
          }
          inputMode="decimal"
          value={partialAllowed ? amount : remaining}
          disabled={!partialAllowed}
          error={fieldError}
          onChange={(event) => setAmount(event.currentTarget.value)}
        />
        <TextInput
          label="Reason (optional)"
          description="Kept with the payment's history"
          maxLength={500}
          value={reason}
          onChange={(event) => setReason(event.currentTarget.value)}
        />
      </FormDialog>
    </>
  );
}
