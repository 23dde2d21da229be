import { Button, Group, Select, Stack } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import type { Price } from "@payments-backend/sdk";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { describeError, useAppId, useClient } from "../../api.tsx";
import { fieldErrors } from "./field-errors.ts";
import { useLinkOptions } from "./link-options.ts";

/** Links a price to a trigger and a seller, or unlinks them. */
export function PriceLinksForm({ price }: { price: Price }) {
  const client = useClient();
  const appId = useAppId();
  const queryClient = useQueryClient();
  const options = useLinkOptions();
  const [triggerId, setTriggerId] = useState(price.trigger_id);
  const [sellerId, setSellerId] = useState(price.kyc_id);

  const save = useMutation({
    mutationFn: () => {
      const trigger = options.triggers.find((option) => option.value === triggerId);
      return client.prices.update(appId, price.id, {
        trigger_id: triggerId,
        kyc_id: sellerId,
        chain: trigger ? trigger.chain : null,
      });
    },
    onSuccess: (updated) => {
      notifications.show({ color: "green", message: "Links saved" });
      queryClient.setQueryData(["price", appId, price.id], updated);
      void queryClient.invalidateQueries({ queryKey: ["prices", appId] });
    },
    onError: (error) => {
      if (Object.keys(fieldErrors(error)).length === 0) {
        notifications.show({ color: "red", message: describeError(error).detail });
      }
    },
  });
  const errors = fieldErrors(save.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };

  return (
    <form onSubmit={submit} aria-label="Trigger and seller">
      <Stack gap="sm">
        <Select
          label="Trigger"
          placeholder={options.triggers.length ? "None" : "No triggers yet"}
          data={options.triggers}
          value={triggerId}
          onChange={setTriggerId}
          clearable
          error={errors.trigger_id}
        />
        <Select
          label="Seller"
          placeholder={options.sellers.length ? "None" : "No sellers yet"}
          data={options.sellers}
          value={sellerId}
          onChange={setSellerId}
          clearable
          error={errors.kyc_id}
        />
        <Group>
          <Button type="submit" variant="light" loading={save.isPending}>
            Save links
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
