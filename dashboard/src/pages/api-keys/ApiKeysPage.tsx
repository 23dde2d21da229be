import { Alert, Badge, Button, Group, Modal, Stack, Text, TextInput, Title } from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { notifications } from "@mantine/notifications";
import type { ApiKey } from "@payments-backend/sdk";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useAppId, useClient, useServiceSettings } from "../../api.tsx";
import { ConfirmAction } from "../../components/ConfirmAction.tsx";
import { CopyField } from "../../components/CopyField.tsx";
import { DialogForm, FormDialog } from "../../components/FormDialog.tsx";
import { LocalTime } from "../../components/LocalTime.tsx";
import { PageState } from "../../components/PageState.tsx";
import { type Column, RecordList } from "../../components/RecordList.tsx";

/**
 * Creating a key shows it once, in the dialog, with a copy button: the service keeps only its
 * hash, so closing the dialog is the last chance to copy it (as Stripe's secret keys).
 */
function CreateKeyButton() {
  const appId = useAppId();
  const client = useClient();
  const queryClient = useQueryClient();
  const [opened, { open, close }] = useDisclosure(false);
  const [name, setName] = useState("");
  const create = useMutation({
    mutationFn: () => client.apiKeys.create(appId, { name: name.trim() }),
    onSuccess: (key) => {
      void queryClient.invalidateQueries({ queryKey: ["api-keys", appId] });
      notifications.show({ color: "green", title: "API key created", message: key.name });
    },
  });
  const finish = () => {
    close();
    create.reset();
    setName("");
  };
  return (
    <>
      <Button onClick={open}>Create API key</Button>
      <Modal opened={opened} onClose={finish} title="Create an API key" centered>
        {create.data ? (
          <Stack>
            <Alert color="yellow" title="Copy the key now" c="dark">
              This is the only time it is shown. Keep it secret: it acts as this app.
            </Alert>
            <CopyField label="Secret key" value={create.data.key} />
            <Group justify="flex-end">
              <Button onClick={finish}>Done</Button>
            </Group>
          </Stack>
        ) : (
          <DialogForm
            onSubmit={() => create.mutate()}
            onDismiss={finish}
            busy={create.isPending}
            error={create.error}
            label="Create key"
          >
            <TextInput
              label="Key name"
              description="What uses the key, e.g. “production server”"
              required
              maxLength={200}
              value={name}
              onChange={(event) => setName(event.currentTarget.value)}
            />
          </DialogForm>
        )}
      </Modal>
    </>
  );
}

/** Renames a key in place: the key itself, and every server using it, stay as they are. */
function RenameKeyButton({ apiKey }: { apiKey: ApiKey }) {
  const appId = useAppId();
  const client = useClient();
  const queryClient = useQueryClient();
  const [opened, { open, close }] = useDisclosure(false);
  const [name, setName] = useState(apiKey.name);
  const rename = useMutation({
    mutationFn: () => client.apiKeys.update(appId, apiKey.id, { name: name.trim() }),
    onSuccess: (renamed) => {
      void queryClient.invalidateQueries({ queryKey: ["api-keys", appId] });
      notifications.show({ color: "green", title: "API key renamed", message: renamed.name });
      close();
    },
  });
  const start = () => {
    setName(apiKey.name);
    rename.reset();
    open();
  };
  return (
    <>
      <Button size="xs" variant="default" onClick={start} aria-label={`Rename ${apiKey.name}`}>
        Rename
      </Button>
      <FormDialog
        opened={opened}
        title={`Rename ${apiKey.name}`}
        onSubmit={() => rename.mutate()}
        onDismiss={close}
        busy={rename.isPending}
        error={rename.error}
        label="Save name"
        disabled={name.trim() === ""}
      >
        <TextInput
          label="Key name"
          description="Only the label changes: the key keeps working as it is"
          required
          maxLength={200}
          value={name}
          onChange={(event) => setName(event.currentTarget.value)}
        />
      </FormDialog>
    </>
  );
}

function KeyActions({ apiKey }: { apiKey: ApiKey }) {
  const appId = useAppId();
  const client = useClient();
  const queryClient = useQueryClient();
  const revoke = useMutation({
    mutationFn: () => client.apiKeys.revoke(appId, apiKey.id),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ["api-keys", appId] });
      notifications.show({ color: "green", title: "API key revoked", message: apiKey.name });
    },
  });
  return (
    <Group gap="xs" wrap="wrap">
      <RenameKeyButton apiKey={apiKey} />
      {apiKey.revoked_at === null && (
        <ConfirmAction
          size="xs"
          label="Revoke"
          title={`Revoke ${apiKey.name}?`}
          confirmLabel="Revoke key"
          onConfirm={() => revoke.mutateAsync()}
        >
          Every request made with this key fails from now on. This cannot be undone.
        </ConfirmAction>
      )}
    </Group>
  );
}

const KEY_COLUMNS: Column<ApiKey>[] = [
  {
    header: "Key",
    place: "title",
    cell: (apiKey) => (
      <>
        <Text size="sm" fw={500}>
          {apiKey.name}
        </Text>
        <Text size="xs" c="dimmed" ff="monospace">
          {apiKey.prefix}…
        </Text>
      </>
    ),
  },
  { header: "Created", wide: true, cell: (apiKey) => <LocalTime value={apiKey.created_at} /> },
  {
    header: "Status",
    place: "status",
    cell: (apiKey) =>
      apiKey.revoked_at !== null ? (
        <Badge color="gray" variant="light" c="dark">
          Revoked
        </Badge>
      ) : (
        <Badge color="green" variant="light" c="green.9">
          Active
        </Badge>
      ),
  },
  { header: "Actions", place: "actions", cell: (apiKey) => <KeyActions apiKey={apiKey} /> },
];

/** The app's secret keys: create (shown once), list with their prefixes, revoke. */
export function ApiKeysPage() {
  const appId = useAppId();
  const client = useClient();
  const settings = useServiceSettings();
  const keys = useQuery({
    queryKey: ["api-keys", appId],
    queryFn: () => client.apiKeys.list(appId, { limit: 100 }).toArray(1000),
  });
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>API keys</Title>
        <CreateKeyButton />
      </Group>
      <Text size="sm" c="dimmed">
        Programs call the API with a key as <code>Authorization: Bearer sk_…</code>.
        {settings.data?.mode === "test" && " In test mode keys start with sk_test_ and move nothing real."}
      </Text>
      <PageState query={keys} empty="No API keys yet. Create one to call the API from your server.">
        {(list) => (
          <RecordList
            rows={list}
            columns={KEY_COLUMNS}
            rowKey={(apiKey) => apiKey.id}
            cardLabel={(apiKey) => `API key ${apiKey.name}`}
            minWidth={320}
          />
        )}
      </PageState>
    </Stack>
  );
}
