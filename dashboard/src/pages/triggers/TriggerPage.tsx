import { Anchor, Group, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import type { Trigger } from "@payments-backend/sdk";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate, useParams } from "react-router";
import { useAppId, useClient } from "../../api.tsx";
import { ConfirmAction } from "../../components/ConfirmAction.tsx";
import { PageState } from "../../components/PageState.tsx";
import { useTrigger } from "./queries.ts";
import { RenderPreview } from "./RenderPreview.tsx";
import { TriggerBuilder } from "./TriggerBuilder.tsx";

function TriggerView({ trigger }: { trigger: Trigger }) {
  const client = useClient();
  const appId = useAppId();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: () => client.triggers.delete(appId, trigger.id),
    onSuccess: async () => {
      notifications.show({ color: "green", message: `Trigger ${trigger.name} deleted` });
      await queryClient.invalidateQueries({ queryKey: ["triggers", appId] });
      navigate("..", { relative: "path" });
    },
  });
  return (
    <Stack gap="lg">
      <Group justify="space-between" wrap="wrap">
        <Title order={1}>{trigger.name}</Title>
        <ConfirmAction
          label="Delete trigger"
          title={`Delete trigger ${trigger.name}?`}
          onConfirm={() => remove.mutateAsync()}
        >
          Prices linked to it will no longer run a call.
        </ConfirmAction>
      </Group>
      <Text size="sm" c="dimmed">
        Id {trigger.id}
      </Text>
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="lg">
        {/* Keyed by updated_at: a save reloads the builder from what the service stored. */}
        <TriggerBuilder key={trigger.updated_at} trigger={trigger} onSaved={() => {}} />
        <RenderPreview trigger={trigger} />
      </SimpleGrid>
    </Stack>
  );
}

export function TriggerPage() {
  const { triggerId = "" } = useParams();
  const trigger = useTrigger(triggerId);
  return (
    <Stack gap="md">
      <Anchor component={Link} to=".." relative="path" size="sm">
        ← All triggers
      </Anchor>
      <PageState query={trigger} empty="No such trigger">
        {(data: Trigger) => <TriggerView trigger={data} />}
      </PageState>
    </Stack>
  );
}
