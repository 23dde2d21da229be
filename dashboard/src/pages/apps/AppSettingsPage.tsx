import { Button, Divider, Group, Paper, Stack, Text, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import type { App } from "@payments-backend/sdk";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useNavigate } from "react-router";
import { useAppId, useClient } from "../../api.tsx";
import { ConfirmAction } from "../../components/ConfirmAction.tsx";
import { CopyField } from "../../components/CopyField.tsx";
import { ErrorAlert, PageState } from "../../components/PageState.tsx";
import { AppFields, type AppValues, appBody } from "./AppFields.tsx";
import { BrandSection } from "./BrandSection.tsx";
import { useApp } from "./queries.ts";

const valuesOf = (app: App): AppValues => ({
  name: app.name,
  type: app.type,
  app_fee: app.app_fee,
  kyc_return_url: app.kyc_return_url ?? "",
  use_explorer: app.use_explorer,
});

function SettingsForm({ app }: { app: App }) {
  const client = useClient();
  const queryClient = useQueryClient();
  const [values, setValues] = useState(() => valuesOf(app));
  const save = useMutation({
    mutationFn: (body: AppValues) => client.apps.update(app.id, appBody(body)),
    onSuccess: (saved) => {
      queryClient.setQueryData(["apps", app.id], saved);
      void queryClient.invalidateQueries({ queryKey: ["apps"] });
      notifications.show({ color: "green", title: "Settings saved", message: saved.name });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(values);
  };
  const canEdit = app.permissions.can_edit;
  return (
    <form onSubmit={submit}>
      <Stack>
        {!canEdit && <Text c="dimmed">Only the app's owners can change its settings.</Text>}
        {save.isError && <ErrorAlert error={save.error} />}
        <AppFields values={values} onChange={setValues} disabled={!canEdit || save.isPending} />
        {canEdit && (
          <Group>
            <Button type="submit" loading={save.isPending}>
              Save settings
            </Button>
          </Group>
        )}
      </Stack>
    </form>
  );
}

function DeleteApp({ app }: { app: App }) {
  const client = useClient();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const remove = useMutation({
    mutationFn: () => client.apps.delete(app.id),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: ["apps", app.id] });
      void queryClient.invalidateQueries({ queryKey: ["apps"] });
      notifications.show({ color: "green", title: "App deleted", message: app.name });
      navigate("/");
    },
  });
  return (
    <Paper withBorder p="md" style={{ borderColor: "var(--mantine-color-red-3)" }}>
      <Stack gap="sm">
        <Title order={2} size="h4">
          Delete this app
        </Title>
        <Text size="sm">Its prices, wallets, keys and members go with it. This cannot be undone.</Text>
        <Group>
          <ConfirmAction
            label="Delete app"
            title={`Delete ${app.name}?`}
            confirmLabel="Delete app"
            onConfirm={() => remove.mutateAsync()}
          >
            {`${app.name} and everything in it will be deleted for every member.`}
          </ConfirmAction>
        </Group>
      </Stack>
    </Paper>
  );
}

/** The app's name, type, fee, KYC return URL and explorer links; its look on hosted pages; deleting it. */
export function AppSettingsPage() {
  const appId = useAppId();
  const app = useApp(appId);
  return (
    <Stack maw={640}>
      <Title order={1}>Settings</Title>
      <PageState query={app}>
        {(data) => (
          <Stack gap="lg">
            <CopyField label="App id" value={data.id} />
            <SettingsForm key={data.updated_at} app={data} />
            <BrandSection key={`brand-${data.updated_at}`} app={data} />
            {data.permissions.can_delete && (
              <>
                <Divider />
                <DeleteApp app={data} />
              </>
            )}
          </Stack>
        )}
      </PageState>
    </Stack>
  );
}
