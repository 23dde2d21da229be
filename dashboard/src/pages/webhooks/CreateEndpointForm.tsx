import { Button, Group, MultiSelect, Stack, Switch, TextInput } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import type { WebhookEndpoint as Endpoint, EventPattern } from "@payments-backend/sdk";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useAppId, useClient } from "../../api.tsx";
import { ErrorAlert } from "../../components/PageState.tsx";
import { fieldErrors } from "../prices/field-errors.ts";
import { EVENT_OPTIONS } from "./event-options.ts";

/**
 * Registers an endpoint (the new signing secret goes to `onSecret`, to be shown once), or, given
 * `endpoint`, changes its URL, events and whether it is enabled, in place (its secret and delivery
 * log stay).
 */
export function CreateEndpointForm({
  endpoint,
  onSecret,
  onSaved,
}: {
  endpoint?: Endpoint;
  onSecret?: (secret: string) => void;
  onSaved?: () => void;
}) {
  const client = useClient();
  const appId = useAppId();
  const queryClient = useQueryClient();
  const [url, setUrl] = useState(endpoint?.url ?? "");
  const [events, setEvents] = useState<string[]>(endpoint?.events ?? ["payment.*"]);
  const [enabled, setEnabled] = useState(endpoint?.enabled ?? true);
  const create = useMutation({
    // The options are the service's own patterns (event-options.ts), so each is an EventPattern.
    mutationFn: () =>
      endpoint
        ? client.webhooks.update(appId, endpoint.id, changes(endpoint, url.trim(), events, enabled))
        : client.webhooks.create(appId, { url: url.trim(), events: events as EventPattern[] }),
    onSuccess: (saved) => {
      notifications.show({
        color: "green",
        message: `Endpoint ${saved.url} ${endpoint ? "saved" : "added"}`,
      });
      if (saved.secret) onSecret?.(saved.secret);
      if (!endpoint) setUrl("");
      queryClient.setQueryData(["webhook", appId, saved.id], saved);
      void queryClient.invalidateQueries({ queryKey: ["webhooks", appId] });
      onSaved?.();
    },
  });
  const errors = fieldErrors(create.error);
  const showBanner = create.isError && Object.keys(errors).length === 0;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <form onSubmit={submit} aria-label={endpoint ? "Edit webhook endpoint" : "New webhook endpoint"}>
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
        {endpoint && (
          <Switch
            label="Enabled"
            description="A disabled endpoint gets no delivery of new events; its queued ones wait until it is enabled again"
            checked={enabled}
            onChange={(event) => setEnabled(event.currentTarget.checked)}
          />
        )}
        <Group>
          <Button type="submit" loading={create.isPending} disabled={events.length === 0}>
            {endpoint ? "Save changes" : "Add endpoint"}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Only what the dialog changed, so the audit log records that alone (a switch flipped is not a new URL). */
function changes(endpoint: Endpoint, url: string, events: string[], enabled: boolean) {
  const sameEvents =
    events.length === endpoint.events.length && events.every((e, i) => e === endpoint.events[i]);
  return {
    ...(url !== endpoint.url && { url }),
    ...(!sameEvents && { events: events as EventPattern[] }),
    ...(enabled !== endpoint.enabled && { enabled }),
  };
}
