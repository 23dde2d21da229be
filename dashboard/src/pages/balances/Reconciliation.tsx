import { Alert, Badge, Button, Group, List, Paper, Stack, Text, Title } from "@mantine/core";
import type { Schemas } from "@payments-backend/sdk";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useAppId, useClient } from "../../api.tsx";
import { LocalTime } from "../../components/LocalTime.tsx";
import { ErrorAlert } from "../../components/PageState.tsx";

type Run = Schemas["Reconciliation"];

// A run compares the books with the payments, the provider and the chain (docs/ledger.md,
// "Reconciliation"); while one runs it is read again every two seconds until it ends.
const RUNNING_POLL_MS = 2000;

const STATUS: Record<Run["status"], { color: string; label: string }> = {
  running: { color: "yellow", label: "Checking" },
  clean: { color: "green", label: "Everything agrees" },
  mismatched: { color: "red", label: "Disagreements found" },
};

function RunSummary({ run }: { run: Run }) {
  const status = STATUS[run.status];
  return (
    <Stack gap="xs">
      <Group gap="sm">
        <Badge color={status.color} variant="light">
          {status.label}
        </Badge>
        <Text size="sm" c="dimmed">
          {run.trigger === "schedule" ? "Daily run" : "Asked for"} <LocalTime value={run.created_at} />
          {run.status !== "running" && `, ${run.payments_checked} payments compared`}
        </Text>
      </Group>
      {run.mismatches.length > 0 && (
        <Alert color="red" title={`${run.mismatches.length} disagreement(s)`}>
          <List size="sm" spacing={4}>
            {run.mismatches.map((mismatch, index) => (
              // A run's mismatches never change once written: their order is their identity.
              // biome-ignore lint/suspicious/noArrayIndexKey: see above
              <List.Item key={index}>
                {mismatch.payment_id && <code>{mismatch.payment_id}</code>} {mismatch.message}
              </List.Item>
            ))}
          </List>
        </Alert>
      )}
    </Stack>
  );
}

/** The latest reconciliation run of the app, and a button to check again now. */
export function Reconciliation({ canRun }: { canRun: boolean }) {
  const client = useClient();
  const appId = useAppId();
  const queryClient = useQueryClient();
  const runs = useQuery({
    queryKey: ["reconciliations", appId],
    queryFn: () => client.ledger.listReconciliations(appId, { limit: 1 }).page(),
    refetchInterval: (query) => (query.state.data?.data[0]?.status === "running" ? RUNNING_POLL_MS : false),
  });
  const run = useMutation({
    mutationFn: () => client.ledger.requestReconciliation(appId),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ["reconciliations", appId] }),
  });
  const latest = runs.data?.data[0];
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="reconciliation-title">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h4" id="reconciliation-title">
            Reconciliation
          </Title>
          {canRun && (
            <Button
              variant="light"
              loading={run.isPending || latest?.status === "running"}
              onClick={() => run.mutate()}
            >
              Check now
            </Button>
          )}
        </Group>
        <Text size="sm" c="dimmed">
          Compares the books with every payment, the payment provider and the chain. It runs daily by itself.
        </Text>
        {runs.isError && <ErrorAlert error={runs.error} onRetry={() => void runs.refetch()} />}
        {run.isError && <ErrorAlert error={run.error} />}
        {latest ? <RunSummary run={latest} /> : runs.isSuccess && <Text size="sm">No run yet.</Text>}
      </Stack>
    </Paper>
  );
}
