import { Button, Group, Radio, Select, SimpleGrid, Stack, TextInput } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useAppId, useClient } from "../../api.tsx";
import { ErrorAlert } from "../../components/PageState.tsx";
import { fieldErrors } from "./field-errors.ts";
import { useLinkOptions } from "./link-options.ts";

type PriceType = "static" | "dynamic";

const EMPTY = { name: "", amount: "", currency: "usd", type: "static" as PriceType };

/** Creates a static or dynamic price, optionally linked to a trigger and a seller. */
export function CreatePriceForm({ onCreated }: { onCreated?: (priceId: string) => void }) {
  const client = useClient();
  const appId = useAppId();
  const queryClient = useQueryClient();
  const options = useLinkOptions();
  const [values, setValues] = useState(EMPTY);
  const [triggerId, setTriggerId] = useState<string | null>(null);
  const [sellerId, setSellerId] = useState<string | null>(null);

  const create = useMutation({
    mutationFn: () => {
      const trigger = options.triggers.find((option) => option.value === triggerId);
      return client.prices.create(appId, {
        name: values.name.trim(),
        // Sent as text: the API keeps every digit of a decimal string exactly.
        amount: values.amount.trim(),
        currency: values.currency.trim(),
        type: values.type,
        trigger_id: triggerId,
        kyc_id: sellerId,
        chain: trigger ? trigger.chain : null,
      });
    },
    onSuccess: (price) => {
      notifications.show({ color: "green", message: `Price "${price.name}" created` });
      setValues(EMPTY);
      setTriggerId(null);
      setSellerId(null);
      void queryClient.invalidateQueries({ queryKey: ["prices", appId] });
      onCreated?.(price.id);
    },
  });

  const errors = fieldErrors(create.error);
  const set = (field: keyof typeof EMPTY) => (event: { currentTarget: { value: string } }) =>
    setValues((current) => ({ ...current, [field]: event.currentTarget.value }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  // Field errors show under their inputs; anything else (no role, a conflict) in the banner.
  const showBanner = create.isError && Object.keys(errors).length === 0;

  return (
    <form onSubmit={submit} aria-label="New price">
      <Stack gap="sm">
        {showBanner && <ErrorAlert error={create.error} />}
        <TextInput label="Name" required value={values.name} onChange={set("name")} error={errors.name} />
        <Radio.Group
          label="Type"
          description="Dynamic: the shopper names the amount, at least this one"
          value={values.type}
          onChange={(type) => setValues((current) => ({ ...current, type: type as PriceType }))}
        >
          <Group mt="xs">
            <Radio value="static" label="Static" />
            <Radio value="dynamic" label="Dynamic" />
          </Group>
        </Radio.Group>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label={values.type === "dynamic" ? "Minimum amount" : "Amount"}
            description="In major units, e.g. 25.00"
            inputMode="decimal"
            required
            value={values.amount}
            onChange={set("amount")}
            error={errors.amount}
          />
          <TextInput
            label="Currency"
            description="usd, eur, … or a chain currency"
            required
            value={values.currency}
            onChange={set("currency")}
            error={errors.currency}
          />
          <Select
            label="Trigger"
            description="The contract call a payment runs"
            placeholder={options.triggers.length ? "None" : "No triggers yet"}
            data={options.triggers}
            value={triggerId}
            onChange={setTriggerId}
            clearable
            error={errors.trigger_id}
          />
          <Select
            label="Seller"
            description="The KYC'd seller who receives the seller's share"
            placeholder={options.sellers.length ? "None" : "No sellers yet"}
            data={options.sellers}
            value={sellerId}
            onChange={setSellerId}
            clearable
            error={errors.kyc_id}
          />
        </SimpleGrid>
        <Group>
          <Button type="submit" loading={create.isPending}>
            Create price
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
