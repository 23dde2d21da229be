import { Anchor, Card, Group, Stack, Title } from "@mantine/core";
import type { WebhookEndpoint } from "@payments-backend/sdk";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "react-router";
import { useAppId, useClient } from "../../api.tsx";
import { LocalTime } from "../../components/LocalTime.tsx";
import { PageState } from "../../components/PageState.tsx";
import { type Column, RecordList } from "../../components/RecordList.tsx";
import { Pager, pageQuery, useCursorPages } from "../payments/paging.tsx";
import { ToneBadge } from "../payments/tone.tsx";
import { CreateEndpointForm } from "./CreateEndpointForm.tsx";
import { SecretOnce } from "./SecretOnce.tsx";

export function WebhooksPage() {
  const client = useClient();
  const appId = useAppId();
  const pages = useCursorPages();
  const [secret, setSecret] = useState<string | null>(null);
  const endpoints = useQuery({
    queryKey: ["webhooks", appId, { cursor: pages.cursor }],
    queryFn: () => client.webhooks.list(appId, { limit: 20 }).page(pageQuery(pages.cursor)),
    placeholderData: keepPreviousData,
  });
  return (
    <Stack>
      <Title order={1}>Webhooks</Title>
      <Card withBorder>
        <Title order={2} size="h4" mb="sm">
          New endpoint
        </Title>
        <Stack>
          {secret && <SecretOnce secret={secret} onDone={() => setSecret(null)} />}
          <CreateEndpointForm
            onSecret={(value) => {
              pages.reset();
              setSecret(value);
            }}
          />
        </Stack>
      </Card>
      <PageState
        query={endpoints}
        empty="No webhook endpoints yet"
        isEmpty={(page) => page.data.length === 0}
      >
        {(page) => (
          <Stack>
            <EndpointsTable endpoints={page.data} />
            <Pager pages={pages} label="Endpoints" page={page} />
          </Stack>
        )}
      </PageState>
    </Stack>
  );
}

const ENDPOINT_COLUMNS: Column<WebhookEndpoint>[] = [
  {
    header: "URL",
    place: "title",
    cell: (endpoint) => (
      <Anchor component={Link} to={endpoint.id}>
        {endpoint.url}
      </Anchor>
    ),
  },
  { header: "Status", place: "status", cell: (endpoint) => <EnabledBadge enabled={endpoint.enabled} /> },
  { header: "Events", cell: (endpoint) => <EventBadges events={endpoint.events} /> },
  { header: "Created", cell: (endpoint) => <LocalTime value={endpoint.created_at} /> },
];

function EndpointsTable({ endpoints }: { endpoints: WebhookEndpoint[] }) {
  return (
    <RecordList
      rows={endpoints}
      columns={ENDPOINT_COLUMNS}
      rowKey={(endpoint) => endpoint.id}
      cardLabel={(endpoint) => `Endpoint ${endpoint.url}`}
      minWidth={520}
    />
  );
}

/** Whether the endpoint receives deliveries: a disabled one gets none until it is enabled again. */
export function EnabledBadge({ enabled }: { enabled: boolean }) {
  return enabled ? (
    <ToneBadge tone="success">Enabled</ToneBadge>
  ) : (
    <ToneBadge tone="neutral">Disabled</ToneBadge>
  );
}

export function EventBadges({ events }: { events: string[] }) {
  return (
    <Group gap={4}>
      {events.map((event) => (
        <ToneBadge key={event} tone="info">
          {event}
        </ToneBadge>
      ))}
    </Group>
  );
}
