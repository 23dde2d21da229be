import {
  Button,
  ColorInput,
  FileInput,
  Group,
  Image,
  Paper,
  Stack,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import { notifications } from "@mantine/notifications";
import type { App } from "@payments-backend/sdk";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useClient } from "../../api.tsx";
import { ErrorAlert } from "../../components/PageState.tsx";

// What shoppers see of the app on the hosted pages (checkout, auction, KYC widget, invitation):
// its display name, accent colour and icon (docs/payments.md, "Hosted pages: the app's face").

const ICON_TYPES = ["image/png", "image/jpeg", "image/webp"] as const;
type IconType = (typeof ICON_TYPES)[number];
const ICON_MAX_BYTES = 256 * 1024;

/** Why a chosen file cannot be the icon, said before anything is sent; undefined when it can. */
function iconProblem(file: File): string | undefined {
  if (!(ICON_TYPES as readonly string[]).includes(file.type)) return "Choose a PNG, JPEG or WebP image.";
  if (file.size > ICON_MAX_BYTES)
    return `This image is ${Math.ceil(file.size / 1024)} KB; the icon may be 256 KB at most.`;
  return undefined;
}

export function BrandSection({ app }: { app: App }) {
  const client = useClient();
  const queryClient = useQueryClient();
  const [displayName, setDisplayName] = useState(app.display_name ?? "");
  const [accent, setAccent] = useState(app.accent_color ?? "");
  const [file, setFile] = useState<File | null>(null);
  const saved = (next: App, title: string) => {
    queryClient.setQueryData(["apps", app.id], next);
    void queryClient.invalidateQueries({ queryKey: ["apps"] });
    notifications.show({ color: "green", title, message: next.display_name ?? next.name });
  };
  const save = useMutation({
    mutationFn: () =>
      client.apps.update(app.id, {
        display_name: displayName.trim() === "" ? null : displayName.trim(),
        accent_color: accent === "" ? null : accent.toLowerCase(),
      }),
    onSuccess: (next) => saved(next, "Look saved"),
  });
  const upload = useMutation({
    mutationFn: (chosen: File) => client.apps.uploadIcon(app.id, chosen, chosen.type as IconType),
    onSuccess: (next) => {
      setFile(null);
      saved(next, "Icon uploaded");
    },
  });
  const remove = useMutation({
    mutationFn: async () => {
      await client.apps.deleteIcon(app.id);
      return client.apps.get(app.id);
    },
    onSuccess: (next) => saved(next, "Icon removed"),
  });
  const fileProblem = file ? iconProblem(file) : undefined;
  const canEdit = app.permissions.can_edit;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={2} size="h4">
          What shoppers see
        </Title>
        <Text size="sm" c="dimmed">
          The checkout, auction, seller onboarding and invitation pages show this name, icon and colour.
        </Text>
        <form onSubmit={submit}>
          <Stack gap="sm">
            {save.isError && <ErrorAlert error={save.error} />}
            <TextInput
              label="Display name"
              description={`Shown instead of "${app.name}" when set`}
              maxLength={80}
              value={displayName}
              onChange={(event) => setDisplayName(event.currentTarget.value)}
              disabled={!canEdit || save.isPending}
            />
            <ColorInput
              label="Accent colour"
              description="Buttons and links on the hosted pages; empty for the service's own"
              format="hex"
              eyeDropperButtonProps={{ "aria-label": "Pick the colour from the screen" }}
              value={accent}
              onChange={setAccent}
              disabled={!canEdit || save.isPending}
            />
            {canEdit && (
              <Group>
                <Button type="submit" variant="light" loading={save.isPending}>
                  Save look
                </Button>
              </Group>
            )}
          </Stack>
        </form>
        <Group align="flex-end">
          {app.icon_url ? (
            <Image src={app.icon_url} alt={`${app.name}'s icon`} w={48} h={48} radius="sm" />
          ) : (
            <Text size="sm" c="dimmed">
              No icon yet.
            </Text>
          )}
          {canEdit && (
            <FileInput
              label="Icon"
              description="PNG, JPEG or WebP, 256 KB at most"
              accept={ICON_TYPES.join(",")}
              value={file}
              onChange={setFile}
              error={fileProblem}
              clearable
            />
          )}
          {canEdit && file && !fileProblem && (
            <Button variant="light" loading={upload.isPending} onClick={() => upload.mutate(file)}>
              Upload icon
            </Button>
          )}
          {canEdit && app.icon_url && (
            <Button variant="subtle" color="red" loading={remove.isPending} onClick={() => remove.mutate()}>
              Remove icon
            </Button>
          )}
        </Group>
        {upload.isError && <ErrorAlert error={upload.error} />}
        {remove.isError && <ErrorAlert error={remove.error} />}
      </Stack>
    </Paper>
  );
}
