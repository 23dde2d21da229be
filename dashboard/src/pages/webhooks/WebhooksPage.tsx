import { Anchor, Card, Group, Stack, Table, Title } from "@mantine/core";
import type { WebhookEndpoint } from "@payments-backend/sdk";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "react-router";
import { useAppId, useClient } from "../../api.tsx";
import { LocalTime } from "../../components/LocalTime.tsx";
import { PageState } from "../../components/PageState.tsx";
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

function EndpointsTable({ endpoints }: { endpoints: WebhookEndpoint[] }) {
  return (
    <Table.ScrollContainer minWidth={520}>
      <Table striped highlightOnHover>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>URL</Table.Th>
            <Table.Th>Events</Table.Th>
            <Table.Th>Created</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {endpoints.map((endpoint) => (
            <Table.Tr key={endpoint.id}>
              <Table.Td style={{ overflowWrap: "anywhere" }}>
                <Anchor component={Link} to={endpoint.id}>
                  {endpoint.url}
                </Anchor>
              </Table.Td>
              <Table.Td>
                <EventBadges events={endpoint.events} />
              </Table.Td>
              <Table.Td>
                <LocalTime value={endpoint.created_at} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
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
