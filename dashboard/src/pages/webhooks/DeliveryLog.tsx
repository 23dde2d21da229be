import { Accordion, Button, Code, Group, Stack, Text, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import type { Delivery, WebhookEndpoint } from "@payments-backend/sdk";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { EVENT_TYPES } from "../../../../src/modules/webhooks/event-types.ts";
import { describeError, useAppId, useClient } from "../../api.tsx";
import { FilterSelect } from "../../components/filter-bar.tsx";
import { LocalTime } from "../../components/LocalTime.tsx";
import { useFallbackInterval } from "../../components/live-events.tsx";
import { PageState } from "../../components/PageState.tsx";
import { useUrlFilters } from "../../components/url-filters.ts";
import { Pager, pageQuery, useCursorPages } from "../payments/paging.tsx";
import { type Tone, ToneBadge } from "../payments/tone.tsx";

const TONE: Record<Delivery["status"], Tone> = {
  pending: "warning",
  retrying: "warning",
  succeeded: "success",
  failed: "danger",
};

/** A delivery still being tried changes on its own: read the log again until none is. */
const POLL_MS = 2000;

/** How often the newest page of the log is read again while the app's event stream is down. */
const NEWEST_PAGE_POLL_MS = 5000;

const STATUS_OPTIONS = [
  { value: "", label: "Any status" },
  ...(["pending", "retrying", "succeeded", "failed"] as const).map((value) => ({ value, label: value })),
];

/** One event type (the test event's too) or a whole family, as the list API filters them. */
const TYPE_OPTIONS = [
  { group: "Any", items: [{ value: "", label: "Any event" }] },
  {
    group: "Families",
    items: [...new Set(EVENT_TYPES.map((type) => type.split(".")[0]))].map((family) => ({
      value: `${family}.*`,
      label: `${family}.*`,
    })),
  },
  {
    group: "Events",
    items: [...EVENT_TYPES, "webhook.test"].map((type) => ({ value: type, label: type })),
  },
];

type DeliveryQuery = NonNullable<Parameters<ReturnType<typeof useClient>["webhooks"]["listDeliveries"]>[2]>;

/** The query key of an endpoint's delivery log (every page of it). */
export const deliveriesKey = (appId: string, endpointId: string) => ["webhook-deliveries", appId, endpointId];

/** The endpoint's deliveries, newest first: what was sent, every attempt's answer, and replay. */
export function DeliveryLog({ endpoint }: { endpoint: WebhookEndpoint }) {
  const client = useClient();
  const appId = useAppId();
  const pages = useCursorPages();
  const { filters, set, active } = useUrlFilters(["status", "type"] as const);
  const newest = useFallbackInterval(NEWEST_PAGE_POLL_MS);
  const deliveries = useQuery({
    queryKey: [...deliveriesKey(appId, endpoint.id), { ...filters, cursor: pages.cursor }],
    queryFn: () =>
      client.webhooks
        .listDeliveries(appId, endpoint.id, {
          limit: 20,
          status: filters.status as DeliveryQuery["status"],
          type: filters.type as DeliveryQuery["type"],
        })
        .page(pageQuery(pages.cursor)),
    placeholderData: keepPreviousData,
    // Quickly while a delivery is under way (attempts are no events). New deliveries come with the
    // app's events, which mark this log stale; on the newest page it polls while the stream is down.
    refetchInterval: (query) => {
      const underWay = query.state.data?.data.some(
        (delivery) => delivery.status === "pending" || delivery.status === "retrying",
      );
      if (underWay) return POLL_MS;
      return pages.cursor === undefined ? newest : false;
    },
  });
  const queryClient = useQueryClient();
  const sendTest = useMutation({
    mutationFn: () => client.webhooks.sendTest(appId, endpoint.id),
    onSuccess: () => {
      notifications.show({ color: "green", message: "Test event sent" });
      // The new delivery is the newest: show the first page, where it lands.
      pages.reset();
      void queryClient.invalidateQueries({ queryKey: deliveriesKey(appId, endpoint.id) });
    },
    onError: (error) => notifications.show({ color: "red", message: describeError(error).detail }),
  });
  return (
    <Stack>
      <Group justify="space-between" align="center">
        <Title order={2} size="h3">
          Deliveries
        </Title>
        <Button
          variant="light"
          size="xs"
          onClick={() => sendTest.mutate()}
          loading={sendTest.isPending}
          disabled={!endpoint.enabled}
        >
          Send test event
        </Button>
      </Group>
      <Text size="xs" c="dimmed">
        {endpoint.enabled
          ? "A test event (webhook.test) goes to this endpoint whatever events it listens to, signed like any other."
          : "This endpoint is disabled: it takes no delivery, a test event or a replay neither, until it is enabled again (Edit endpoint)."}
      </Text>
      <Group align="flex-end" wrap="wrap" role="group" aria-label="Filter deliveries">
        <FilterSelect
          label="Status"
          data={STATUS_OPTIONS}
          value={filters.status}
          onPick={(status) => {
            pages.reset();
            set({ status });
          }}
          w={{ base: "100%", xs: 180 }}
        />
        <FilterSelect
          label="Event type"
          data={TYPE_OPTIONS}
          value={filters.type}
          onPick={(type) => {
            pages.reset();
            set({ type });
          }}
          searchable
          w={{ base: "100%", xs: 260 }}
        />
      </Group>
      <PageState
        query={deliveries}
        empty={active ? "No delivery matches these filters" : "No deliveries yet"}
        isEmpty={(page) => page.data.length === 0}
      >
        {(page) => (
          <Stack>
            <Accordion variant="separated">
              {page.data.map((delivery) => (
                <DeliveryItem
                  key={delivery.id}
                  delivery={delivery}
                  url={endpoint.url}
                  enabled={endpoint.enabled}
                  onReplayed={pages.reset}
                />
              ))}
            </Accordion>
            <Pager pages={pages} label="Deliveries" page={page} />
          </Stack>
        )}
      </PageState>
    </Stack>
  );
}

function DeliveryItem({
  delivery,
  url,
  enabled,
  onReplayed,
}: {
  delivery: Delivery;
  url: string;
  /** Whether the endpoint is enabled: a disabled one takes no replay. */
  enabled: boolean;
  onReplayed: () => void;
}) {
  const client = useClient();
  const appId = useAppId();
  const queryClient = useQueryClient();
  const replay = useMutation({
    mutationFn: () => client.webhooks.replay(appId, delivery.id),
    onSuccess: () => {
      notifications.show({ color: "green", message: `${delivery.event.type} sent again` });
      onReplayed();
      void queryClient.invalidateQueries({ queryKey: deliveriesKey(appId, delivery.endpoint_id) });
    },
    onError: (error) => notifications.show({ color: "red", message: describeError(error).detail }),
  });
  return (
    <Accordion.Item value={delivery.id}>
      <Accordion.Control>
        <Group gap="xs" wrap="wrap">
          <ToneBadge tone={TONE[delivery.status]}>{delivery.status}</ToneBadge>
          <Text size="sm" fw={600}>
            {delivery.event.type}
          </Text>
          <Text size="xs" c="dimmed">
            <LocalTime value={delivery.created_at} />
          </Text>
          {delivery.replay_of && (
            <Text size="xs" c="dimmed">
              (replay)
            </Text>
          )}
        </Group>
      </Accordion.Control>
      <Accordion.Panel>
        <Stack gap="sm">
          <div>
            <Text size="sm" fw={600}>
              Request
            </Text>
            <Code block style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>
              {`POST ${url}\ncontent-type: application/json\nwebhook-id: ${delivery.event.id}\n\n${pretty(delivery.request_body)}`}
            </Code>
          </div>
          <Attempts delivery={delivery} />
          <Group>
            <Button
              variant="light"
              size="xs"
              onClick={() => replay.mutate()}
              loading={replay.isPending}
              disabled={!enabled}
            >
              Replay
            </Button>
            <Text size="xs" c="dimmed">
              Sends the same event (same webhook-id) again, as a new delivery.
            </Text>
          </Group>
        </Stack>
      </Accordion.Panel>
    </Accordion.Item>
  );
}

/** The JSON body as sent, indented for reading (the bytes sent are on one line, as signed). */
function pretty(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

/** Every attempt, oldest first: the receiver's status and the start of its body, or why none came. */
function Attempts({ delivery }: { delivery: Delivery }) {
  if (delivery.attempts.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        Not tried yet.
      </Text>
    );
  }
  return (
    <Stack gap="xs">
      <Text size="sm" fw={600}>
        Response{delivery.attempt_count === 1 ? "" : `s (${delivery.attempt_count} attempts)`}
      </Text>
      {delivery.attempts.map((attempt) => (
        <Stack key={attempt.attempted_at} gap={4}>
          <Group gap="xs">
            <ToneBadge tone={attempt.status_code && attempt.status_code < 300 ? "success" : "danger"}>
              {attempt.status_code ?? "no answer"}
            </ToneBadge>
            <Text size="xs" c="dimmed">
              {attempt.duration_ms} ms · <LocalTime value={attempt.attempted_at} />
            </Text>
          </Group>
          {attempt.error && (
            <Code block style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>
              {attempt.error}
            </Code>
          )}
          {attempt.response_excerpt && (
            <>
              <Text size="xs" c="dimmed">
                Response body (its first 256 characters are kept)
              </Text>
              <Code block style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>
                {attempt.response_excerpt}
              </Code>
            </>
          )}
        </Stack>
      ))}
    </Stack>
  );
}
