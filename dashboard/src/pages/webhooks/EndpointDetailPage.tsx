import { Anchor, Button, Card, Group, Modal, Stack, Text, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import type { WebhookEndpoint } from "@payments-backend/sdk";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { flushSync } from "react-dom";
import { Link, useNavigate, useParams } from "react-router";
import { useAppId, useClient } from "../../api.tsx";
import { ConfirmAction } from "../../components/ConfirmAction.tsx";
import { LocalTime } from "../../components/LocalTime.tsx";
import { PageState } from "../../components/PageState.tsx";
import { DANGER } from "../payments/tone.tsx";
import { CreateEndpointForm } from "./CreateEndpointForm.tsx";
import { DeliveryLog, deliveriesKey } from "./DeliveryLog.tsx";
import { SecretOnce } from "./SecretOnce.tsx";
import { EnabledBadge, EventBadges } from "./WebhooksPage.tsx";

export function EndpointDetailPage() {
  const client = useClient();
  const appId = useAppId();
  const { endpointId = "" } = useParams();
  const endpoint = useQuery({
    queryKey: ["webhook", appId, endpointId],
    queryFn: () => client.webhooks.get(appId, endpointId),
  });
  return <PageState query={endpoint}>{(data) => <EndpointDetail endpoint={data} />}</PageState>;
}

function EndpointDetail({ endpoint }: { endpoint: WebhookEndpoint }) {
  const client = useClient();
  const appId = useAppId();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [secret, setSecret] = useState<string | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [editing, setEditing] = useState(false);
  const rotate = useMutation({
    mutationFn: () => client.webhooks.rotateSecret(appId, endpoint.id),
    onSuccess: (rotated) => {
      notifications.show({ color: "green", message: "New signing secret made" });
      setSecret(rotated.secret);
    },
  });
  const remove = useMutation({
    mutationFn: async () => {
      // Once the endpoint is gone its log answers 404: stop following the log first (unmounting it
      // now), and let a read already under way land before the delete is sent.
      flushSync(() => setDeleting(true));
      const log = { queryKey: deliveriesKey(appId, endpoint.id) };
      while (queryClient.isFetching(log) > 0) await new Promise((resolve) => setTimeout(resolve, 50));
      await client.webhooks.delete(appId, endpoint.id);
    },
    onError: () => setDeleting(false),
    onSuccess: () => {
      notifications.show({ color: "green", message: "Endpoint deleted" });
      void queryClient.invalidateQueries({ queryKey: ["webhooks", appId] });
      void navigate("..", { relative: "path" });
    },
  });
  return (
    <Stack>
      <Stack gap={4}>
        <Anchor component={Link} to=".." relative="path" size="sm">
          ← Webhooks
        </Anchor>
        <Title order={1}>Webhook endpoint</Title>
        <Text style={{ overflowWrap: "anywhere" }}>{endpoint.url}</Text>
      </Stack>
      <Card withBorder>
        <Stack gap="sm">
          <Group gap="xs">
            <EnabledBadge enabled={endpoint.enabled} />
            <EventBadges events={endpoint.events} />
          </Group>
          <Text size="sm" c="dimmed">
            Added <LocalTime value={endpoint.created_at} />
          </Text>
          {secret && <SecretOnce secret={secret} onDone={() => setSecret(null)} />}
          <Group gap="xs">
            <Button variant="light" onClick={() => setEditing(true)}>
              Edit endpoint
            </Button>
            <ConfirmAction
              label="Rotate secret"
              title="Make a new signing secret?"
              color="brand"
              onConfirm={() => rotate.mutateAsync()}
            >
              The new secret is shown once. The old one keeps signing too for 24 hours, so your receiver can
              switch over.
            </ConfirmAction>
            <ConfirmAction
              label="Delete endpoint"
              title="Delete this endpoint?"
              color={DANGER}
              onConfirm={() => remove.mutateAsync()}
            >
              Deliveries not yet made to it are dropped.
            </ConfirmAction>
          </Group>
        </Stack>
      </Card>
      <Modal opened={editing} onClose={() => setEditing(false)} title="Edit webhook endpoint" centered>
        <CreateEndpointForm endpoint={endpoint} onSaved={() => setEditing(false)} />
      </Modal>
      {!deleting && <DeliveryLog endpoint={endpoint} />}
    </Stack>
  );
}
