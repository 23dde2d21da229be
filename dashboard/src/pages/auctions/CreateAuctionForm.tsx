import { Button, Group, Paper, Select, Stack, TextInput, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import type { BodyOf } from "@payments-backend/sdk";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useNavigate } from "react-router";
import { useAppId, useClient } from "../../api.tsx";
import { ErrorAlert } from "../../components/PageState.tsx";
import { useTriggers } from "../triggers/queries.ts";

type CreateBody = BodyOf<"/auctions/{id}", "post">;

/** `datetime-local` wants the viewer's local time without a zone: a day from now, to the minute. */
function tomorrowLocal(): string {
  const date = new Date(Date.now() + 24 * 3600_000);
  date.setSeconds(0, 0);
  return new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

export function CreateAuctionForm() {
  const client = useClient();
  const appId = useAppId();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const triggers = useTriggers();
  const [name, setName] = useState("");
  const [amount, setAmount] = useState("");
  const [currency, setCurrency] = useState("usd");
  const [increment, setIncrement] = useState("");
  const [endsAt, setEndsAt] = useState(tomorrowLocal);
  const [triggerId, setTriggerId] = useState<string | null>(null);
  const [localError, setLocalError] = useState<Error | null>(null);

  const create = useMutation({
    mutationFn: (body: CreateBody) => client.auctions.create(appId, body),
    onSuccess: async (auction) => {
      notifications.show({ color: "green", message: `Auction ${auction.name} created` });
      await queryClient.invalidateQueries({ queryKey: ["auctions", appId] });
      navigate(auction.id);
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setLocalError(null);
    // The input is the viewer's local time; the service takes an instant.
    const end = new Date(endsAt);
    if (Number.isNaN(end.getTime())) {
      setLocalError(new Error("Ends at: choose a date and time"));
      return;
    }
    create.mutate({
      name,
      amount: amount.trim(),
      currency: currency.trim(),
      ends_at: end.toISOString(),
      ...(increment.trim() && { min_increment: increment.trim() }),
      ...(triggerId && { trigger_id: triggerId }),
    });
  };

  return (
    <Paper withBorder p="md" component="form" onSubmit={submit} aria-labelledby="new-auction">
      <Stack gap="sm">
        <Title order={2} size="h4" id="new-auction">
          New auction
        </Title>
        <TextInput
          label="Auction name"
          required
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
        />
        <Group grow wrap="wrap" align="flex-start">
          <TextInput
            label="Starting amount"
            description="In major units: 12.50"
            required
            inputMode="decimal"
            value={amount}
            onChange={(e) => setAmount(e.currentTarget.value)}
            miw={140}
          />
          <TextInput
            label="Currency"
            required
            value={currency}
            onChange={(e) => setCurrency(e.currentTarget.value)}
            miw={100}
          />
        </Group>
        <TextInput
          label="Minimum increment (optional)"
          description="Each bid beats the standing one by at least this; default one minor unit"
          inputMode="decimal"
          value={increment}
          onChange={(e) => setIncrement(e.currentTarget.value)}
        />
        <TextInput
          label="Ends at"
          description="In your local time"
          type="datetime-local"
          required
          value={endsAt}
          onChange={(e) => setEndsAt(e.currentTarget.value)}
        />
        <Select
          label="Trigger (optional)"
          description="The call the winner's payment runs"
          data={(triggers.data ?? []).map((t) => ({ value: t.id, label: t.name }))}
          value={triggerId}
          onChange={setTriggerId}
          clearable
          placeholder={triggers.isPending ? "Loading triggers…" : "No trigger"}
        />
        {triggers.isError && <ErrorAlert error={triggers.error} onRetry={() => void triggers.refetch()} />}
        {(localError ?? create.error) && <ErrorAlert error={localError ?? create.error} />}
        <Button type="submit" loading={create.isPending} style={{ alignSelf: "flex-start" }}>
          Create auction
        </Button>
      </Stack>
    </Paper>
  );
}
