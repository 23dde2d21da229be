import { Code, JsonInput, Loader, Paper, Stack, Text, Title } from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import type { Trigger } from "@payments-backend/sdk";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useAppId, useClient } from "../../api.tsx";
import { ErrorAlert } from "../../components/PageState.tsx";

function parseInput(text: string): { ok: true; value: Record<string, unknown> } | { ok: false } {
  if (text.trim() === "") return { ok: true, value: {} };
  try {
    const value = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? { ok: true, value }
      : { ok: false };
  } catch {
    return { ok: false };
  }
}

/**
 * The exact call the saved trigger would send for some parameter values, rendered by the service
 * (`POST …/render`, which sends nothing) as the owner types: the same function payments use, so
 * what shows here is what a payment sends.
 */
export function RenderPreview({ trigger }: { trigger: Trigger }) {
  const client = useClient();
  const appId = useAppId();
  const [text, setText] = useState(trigger.params_data_example);
  const [debounced] = useDebouncedValue(text, 400);
  const input = parseInput(debounced);

  const rendered = useQuery({
    // updated_at: a saved change to the trigger renders again.
    queryKey: ["trigger-render", appId, trigger.id, trigger.updated_at, debounced],
    queryFn: () =>
      client.triggers.render(appId, trigger.id, { params_data_input: input.ok ? input.value : {} }),
    enabled: input.ok,
    retry: false,
    placeholderData: keepPreviousData,
  });

  const call = rendered.data;
  const chainCall = call ? (call.evm ?? call.near ?? call.wax ?? call.solana) : undefined;

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="render-preview">
      <Stack gap="sm">
        <Title order={2} size="h4" id="render-preview">
          Preview of the call
        </Title>
        <JsonInput
          label="Parameter values (JSON)"
          description="Values by parameter name; the call below follows as you type"
          autosize
          minRows={3}
          maxRows={12}
          value={text}
          onChange={setText}
          error={input.ok ? null : "Not a JSON object yet"}
        />
        {rendered.isFetching && (
          <Text size="sm" c="dimmed" role="status">
            <Loader size="xs" mr="xs" />
            Rendering…
          </Text>
        )}
        {rendered.isError ? (
          <ErrorAlert error={rendered.error} />
        ) : (
          chainCall && (
            <Stack gap={4}>
              <Text fw={500} size="sm">
                Rendered {call?.chain} call
              </Text>
              <Code
                block
                data-testid="rendered-call"
                style={{ whiteSpace: "pre-wrap", wordBreak: "break-all" }}
              >
                {JSON.stringify(chainCall, null, 2)}
              </Code>
            </Stack>
          )
        )}
      </Stack>
    </Paper>
  );
}
