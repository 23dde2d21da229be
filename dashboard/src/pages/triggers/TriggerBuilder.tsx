import { Anchor, Button, JsonInput, Paper, Select, Stack, TextInput, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import type { BodyOf, Trigger } from "@payments-backend/sdk";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { Link } from "react-router";
import { useAppId, useClient } from "../../api.tsx";
import { ErrorAlert } from "../../components/PageState.tsx";
import { CHAIN_LABELS } from "../wallets/explorers.ts";
import { Notice } from "../wallets/Notice.tsx";
import { useWallets } from "../wallets/queries.ts";
import {
  CALL_FIELDS,
  type CallField,
  type CallFields,
  CallJsonError,
  EMPTY_CALL,
  type FieldSpec,
  fromCallData,
  toCallData,
} from "./call-data.ts";
import { DescriptorEditor } from "./DescriptorEditor.tsx";
import { fromParamsData, NestedJsonError, type ParamRow, toParamsData } from "./descriptors.ts";

type CreateBody = BodyOf<"/triggers/{app_id}", "post">;

/**
 * Writes a trigger: its wallet (which fixes the chain), the call on that chain and the
 * parameters. Creates one when `trigger` is absent, otherwise saves changes to it. The service
 * checks the whole call (ABI, method, placeholders) and answers every problem by its path.
 */
export function TriggerBuilder({
  trigger,
  onSaved,
}: {
  trigger?: Trigger;
  onSaved: (saved: Trigger) => void;
}) {
  const client = useClient();
  const appId = useAppId();
  const queryClient = useQueryClient();
  const wallets = useWallets();
  const [name, setName] = useState(trigger?.name ?? "");
  const [walletId, setWalletId] = useState<string | null>(trigger?.wallet.id ?? null);
  const [call, setCall] = useState<CallFields>(trigger ? fromCallData(trigger) : EMPTY_CALL);
  const [params, setParams] = useState<ParamRow[]>(trigger ? fromParamsData(trigger.params_data) : []);
  const [localError, setLocalError] = useState<Error | null>(null);

  const wallet = wallets.data?.find((w) => w.id === walletId);
  const chain = wallet?.type;

  const save = useMutation({
    mutationFn: (body: CreateBody) =>
      trigger ? client.triggers.update(appId, trigger.id, body) : client.triggers.create(appId, body),
    onSuccess: async (saved) => {
      notifications.show({ color: "green", message: `Trigger ${saved.name} saved` });
      await queryClient.invalidateQueries({ queryKey: ["triggers", appId] });
      onSaved(saved);
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setLocalError(null);
    if (!walletId || !chain) return;
    try {
      const body = {
        name,
        wallet_id: walletId,
        call_data: toCallData(chain, call),
        params_data: toParamsData(params),
      } as CreateBody;
      save.mutate(body);
    } catch (error) {
      if (error instanceof CallJsonError || error instanceof NestedJsonError) setLocalError(error);
      else throw error;
    }
  };

  const setField = (field: CallField, value: string) =>
    setCall((current) => ({ ...current, [field]: value }));
  const walletOptions = (wallets.data ?? []).map((w) => ({
    value: w.id,
    label: `${w.name} (${CHAIN_LABELS[w.type]})`,
  }));

  return (
    <Paper withBorder p="md" component="form" onSubmit={submit} aria-labelledby="trigger-builder">
      <Stack gap="sm">
        <Title order={2} size="h4" id="trigger-builder">
          {trigger ? "Edit trigger" : "New trigger"}
        </Title>
        <TextInput
          label="Trigger name"
          required
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
        />
        {wallets.isSuccess && walletOptions.length === 0 ? (
          <Notice title="No wallet yet">
            A trigger sends its call from one of the app's wallets.{" "}
            <Anchor component={Link} to={`/apps/${appId}/wallets`}>
              Create a wallet
            </Anchor>{" "}
            first.
          </Notice>
        ) : (
          <Select
            label="Wallet"
            description="The wallet signs the call; its chain decides the fields below"
            required
            data={walletOptions}
            value={walletId}
            onChange={setWalletId}
            disabled={!wallets.isSuccess}
            placeholder={wallets.isPending ? "Loading wallets…" : "Choose a wallet"}
          />
        )}
        {wallets.isError && <ErrorAlert error={wallets.error} onRetry={() => void wallets.refetch()} />}
        {chain && (
          <>
            <Title order={3} size="h5">
              {CHAIN_LABELS[chain]} call
            </Title>
            {(Object.entries(CALL_FIELDS[chain]) as [CallField, FieldSpec][]).map(([field, spec]) =>
              spec.json ? (
                <JsonInput
                  key={field}
                  label={spec.label}
                  description={spec.description}
                  required={spec.required}
                  autosize
                  minRows={field === "abi" ? 4 : 2}
                  maxRows={14}
                  value={call[field]}
                  onChange={(value) => setField(field, value)}
                  error={
                    localError instanceof CallJsonError && localError.field === field
                      ? localError.message
                      : null
                  }
                />
              ) : (
                <TextInput
                  key={field}
                  label={spec.label}
                  description={spec.description}
                  required={spec.required}
                  value={call[field]}
                  onChange={(e) => setField(field, e.currentTarget.value)}
                />
              ),
            )}
            <Title order={3} size="h5">
              Parameters
            </Title>
            <DescriptorEditor rows={params} onChange={setParams} />
          </>
        )}
        {(localError ?? save.error) && <ErrorAlert error={localError ?? save.error} />}
        <Button type="submit" loading={save.isPending} disabled={!chain} style={{ alignSelf: "flex-start" }}>
          {trigger ? "Save trigger" : "Create trigger"}
        </Button>
      </Stack>
    </Paper>
  );
}
