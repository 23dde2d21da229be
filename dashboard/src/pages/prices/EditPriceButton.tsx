import { Button, TextInput } from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { notifications } from "@mantine/notifications";
import type { Price } from "@payments-backend/sdk";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useAppId, useClient } from "../../api.tsx";
import { FormDialog } from "../../components/FormDialog.tsx";
import { fieldErrors } from "./field-errors.ts";

/** An instant as a `datetime-local` input shows it: the viewer's own wall-clock time, to the minute. */
function localInput(iso: string | null): string {
  if (!iso) return "";
  const date = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

interface Draft {
  name: string;
  amount: string;
  expiresAt: string;
}

const draftOf = (price: Price): Draft => ({
  name: price.name,
  amount: price.amount_decimal,
  expiresAt: localInput(price.expires_at),
});

/**
 * Edits what `PATCH /prices` lets an app change in daily work: the name, the amount and when it
 * expires. Only changed fields are sent. An auction's prices take their amount from the auction
 * (the API refuses it here), so their amount is changed on the auction's page instead. Payments
 * already made keep the figures they were opened with.
 */
export function EditPriceButton({ price }: { price: Price }) {
  const client = useClient();
  const appId = useAppId();
  const queryClient = useQueryClient();
  const [opened, { open, close }] = useDisclosure(false);
  const [draft, setDraft] = useState<Draft>(() => draftOf(price));
  const auctionPrice = price.category !== "payment";
  const save = useMutation({
    mutationFn: () => {
      const original = draftOf(price);
      const expires = draft.expiresAt ? new Date(draft.expiresAt).toISOString() : null;
      return client.prices.update(appId, price.id, {
        ...(draft.name.trim() !== original.name ? { name: draft.name.trim() } : {}),
        // Sent as text: the API keeps every digit of a decimal string exactly.
        ...(!auctionPrice && draft.amount.trim() !== original.amount ? { amount: draft.amount.trim() } : {}),
        ...(draft.expiresAt !== original.expiresAt ? { expires_at: expires } : {}),
      });
    },
    onSuccess: (updated) => {
      notifications.show({ color: "green", message: `Price "${updated.name}" saved` });
      queryClient.setQueryData(["price", appId, price.id], updated);
      void queryClient.invalidateQueries({ queryKey: ["prices", appId] });
      close();
    },
  });
  const errors = fieldErrors(save.error);
  const field = (name: keyof Draft) => ({
    value: draft[name],
    onChange: (event: { currentTarget: { value: string } }) => {
      // Read now: the event's target is gone by the time a state updater runs.
      const value = event.currentTarget.value;
      setDraft((current) => ({ ...current, [name]: value }));
    },
  });
  const start = () => {
    setDraft(draftOf(price));
    save.reset();
    open();
  };
  return (
    <>
      <Button variant="default" onClick={start}>
        Edit price
      </Button>
      <FormDialog
        opened={opened}
        title={`Edit ${price.name}`}
        onSubmit={() => save.mutate()}
        onDismiss={close}
        busy={save.isPending}
        // A field's own error shows under the field; any other failure above them.
        error={Object.keys(errors).length === 0 ? save.error : null}
        label="Save price"
      >
        <TextInput label="Name" required maxLength={200} error={errors.name} {...field("name")} />
        <TextInput
          label={`${price.type === "dynamic" ? "Minimum amount" : "Amount"} (${price.currency.toUpperCase()})`}
          description={
            auctionPrice
              ? "An auction's price follows the auction: change its starting amount on the auction's page"
              : "Payments already made keep the amount they were opened with"
          }
          inputMode="decimal"
          disabled={auctionPrice}
          error={errors.amount}
          {...field("amount")}
        />
        <TextInput
          label="Expires at"
          description="In your time zone; leave empty to never expire"
          type="datetime-local"
          error={errors.expires_at}
          {...field("expiresAt")}
        />
      </FormDialog>
    </>
  );
}
