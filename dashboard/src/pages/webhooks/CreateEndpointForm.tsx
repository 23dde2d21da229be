import { Button, Group, MultiSelect, Stack, TextInput } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import type { EventPattern } from "@payments-backend/sdk";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useAppId, useClient } from "../../api.tsx";
import { ErrorAlert } from "../../components/PageState.tsx";
import { fieldErrors } from "../prices/field-errors.ts";
import { EVENT_OPTIONS } from "./event-options.ts";

/** Registers an endpoint; the new signing secret goes to `onSecret`, to be shown once. */
export function CreateEndpointForm({ onSecret }: { onSecret: (secret: string) => void }) {
  const client = useClient();
  const appId = useAppId();
  const queryClient = useQueryClient();
  const [url, setUrl] = useState("");
  const [events, setEvents] = useState<string[]>(["payment.*"]);
  const create = useMutation({
    // The options are the service's own patterns (event-options.ts), so each is an EventPattern.
    mutationFn: () => client.webhooks.create(appId, { url: url.trim(), events: events as EventPattern[] }),
    onSuccess: (endpoint) => {
      notifications.show({ color: "green", message: `Endpoint ${endpoint.url} added` });
      if (endpoint.secret) onSecret(endpoint.secret);
      setUrl("");
      void queryClient.invalidateQueries({ queryKey: ["webhooks", appId] });
    },
  });
  const errors = fieldErrors(create.error);
  const showBanner = create.isError && Object.keys(errors).length === 0;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <form onSubmit={submit} aria-label="New webhook endpoint">
      <Stack gap="sm">
        {showBanner && <ErrorAlert error={create.error} />}
        <TextInput
          label="Endpoint URL"
          description="A public http(s) address that answers 2xx"
          placeholder="https://example.com/webhooks"
          type="url"
          required
          value={url}
          onChange={(event) => setUrl(event.currentTarget.value)}
          error={errors.url}
        />
        <MultiSelect
          label="Events"
          description="Whole families (payment.*) follow new event types as they come"
          data={EVENT_OPTIONS}
          value={events}
          onChange={setEvents}
          searchable
          error={errors.events}
        />
        <Group>
          <Button type="submit" loading={create.isPending} disabled={events.length === 0}>
            Add endpoint
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
