import { Anchor, Button, Group, Paper, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import type { Trigger } from "@payments-backend/sdk";
import { Link } from "react-router";
import { LocalTime } from "../../components/LocalTime.tsx";
import { PageState } from "../../components/PageState.tsx";
import { CHAIN_LABELS } from "../wallets/explorers.ts";
import { StatusBadge } from "../wallets/StatusBadge.tsx";
import { useTriggers } from "./queries.ts";

function call(trigger: Trigger) {
  const data = trigger.call_data;
  return data.evm ?? data.near ?? data.wax ?? data.solana;
}

function TriggerCard({ trigger }: { trigger: Trigger }) {
  const own = call(trigger);
  return (
    <Paper withBorder p="md" component="article" aria-label={`Trigger ${trigger.name}`}>
      <Stack gap={6}>
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Anchor component={Link} to={trigger.id} fw={600}>
            {trigger.name}
          </Anchor>
          <StatusBadge color="brand">{CHAIN_LABELS[trigger.wallet.type]}</StatusBadge>
        </Group>
        {own && (
          <Text size="sm" style={{ wordBreak: "break-all" }}>
            {own.method_name} on {own.contract_id}
          </Text>
        )}
        <Text size="sm" c="dimmed">
          From wallet {trigger.wallet.name} · created <LocalTime value={trigger.created_at} />
        </Text>
      </Stack>
    </Paper>
  );
}

export function TriggersPage() {
  const triggers = useTriggers();
  return (
    <Stack gap="lg">
      <Group justify="space-between" wrap="wrap">
        <Title order={1}>Triggers</Title>
        <Button component={Link} to="new">
          New trigger
        </Button>
      </Group>
      <Text c="dimmed" size="sm">
        A trigger is the contract call a payment makes, with parameters the shopper or the app fills in.
      </Text>
      <PageState query={triggers} empty="No triggers yet">
        {(list: Trigger[]) => (
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            {list.map((trigger) => (
              <TriggerCard key={trigger.id} trigger={trigger} />
            ))}
          </SimpleGrid>
        )}
      </PageState>
    </Stack>
  );
}
