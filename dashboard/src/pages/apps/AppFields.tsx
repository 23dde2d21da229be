import { NumberInput, SegmentedControl, Stack, Switch, Text, TextInput } from "@mantine/core";

export interface AppValues {
  name: string;
  type: "individual" | "marketplace";
  app_fee: number;
  kyc_return_url: string;
  use_explorer: boolean;
}

export const newAppValues: AppValues = {
  name: "",
  type: "individual",
  app_fee: 0,
  kyc_return_url: "",
  use_explorer: false,
};

/** The body the API takes: an empty return URL is "none" (null), not an empty string. */
export function appBody(values: AppValues) {
  return { ...values, name: values.name.trim(), kyc_return_url: values.kyc_return_url.trim() || null };
}

/** The app's editable settings, shared by the create dialog and the settings page. */
export function AppFields({
  values,
  onChange,
  disabled = false,
}: {
  values: AppValues;
  onChange: (values: AppValues) => void;
  disabled?: boolean;
}) {
  const set = <K extends keyof AppValues>(key: K, value: AppValues[K]) =>
    onChange({ ...values, [key]: value });
  return (
    <Stack>
      <TextInput
        label="App name"
        required
        maxLength={200}
        value={values.name}
        disabled={disabled}
        onChange={(event) => set("name", event.currentTarget.value)}
      />
      <Stack gap={4}>
        <Text size="sm" fw={500} id="app-type-label">
          Type
        </Text>
        <SegmentedControl
          aria-labelledby="app-type-label"
          disabled={disabled}
          value={values.type}
          onChange={(value) => set("type", value as AppValues["type"])}
          data={[
            { value: "individual", label: "Individual" },
            { value: "marketplace", label: "Marketplace" },
          ]}
        />
        <Text size="xs" c="dimmed">
          A marketplace sells for its sellers and keeps a fee of each sale.
        </Text>
      </Stack>
      <NumberInput
        label="Marketplace fee (%)"
        description="Percent of each sale the app keeps: at least 0, under 100, two decimals at most"
        min={0}
        max={99.99}
        decimalScale={2}
        step={0.5}
        value={values.app_fee}
        disabled={disabled || values.type !== "marketplace"}
        onChange={(value) => set("app_fee", typeof value === "number" ? value : Number(value) || 0)}
      />
      <TextInput
        label="KYC return URL"
        description="Where the KYC widget sends a seller back (https://…); leave empty for none"
        type="url"
        placeholder="https://example.com/kyc-done"
        value={values.kyc_return_url}
        disabled={disabled}
        onChange={(event) => set("kyc_return_url", event.currentTarget.value)}
      />
      <Switch
        label="Link payments to the chain's explorer"
        description="Payments answer a transaction_url in the chain's block explorer"
        checked={values.use_explorer}
        disabled={disabled}
        onChange={(event) => set("use_explorer", event.currentTarget.checked)}
      />
    </Stack>
  );
}
