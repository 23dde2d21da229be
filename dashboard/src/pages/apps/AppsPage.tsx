import { Anchor, Badge, Button, Card, Group, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { notifications } from "@mantine/notifications";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "react-router";
import { useClient } from "../../api.tsx";
import { FormDialog } from "../../components/FormDialog.tsx";
import { LocalTime } from "../../components/LocalTime.tsx";
import { PageState } from "../../components/PageState.tsx";
import { AppFields, type AppValues, appBody, newAppValues } from "./AppFields.tsx";
import { useApps } from "./queries.ts";

function CreateAppButton() {
  const client = useClient();
  const queryClient = useQueryClient();
  const [opened, { open, close }] = useDisclosure(false);
  const [values, setValues] = useState<AppValues>(newAppValues);
  const create = useMutation({
    mutationFn: (body: AppValues) => client.apps.create(appBody(body)),
    onSuccess: (app) => {
      void queryClient.invalidateQueries({ queryKey: ["apps"] });
      notifications.show({ color: "green", title: "App created", message: app.name });
      setValues(newAppValues);
      close();
    },
  });
  return (
    <>
      <Button onClick={open}>Create app</Button>
      <FormDialog
        opened={opened}
        title="Create an app"
        onSubmit={() => create.mutate(values)}
        onDismiss={close}
        busy={create.isPending}
        error={create.error}
        label="Create app"
      >
        <AppFields values={values} onChange={setValues} disabled={create.isPending} />
      </FormDialog>
    </>
  );
}

/** The signed-in user's apps: each opens its overview; the first step of a new account. */
export function AppsPage() {
  const apps = useApps();
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>Apps</Title>
        <CreateAppButton />
      </Group>
      <PageState query={apps} empty="No apps yet. Create one to take payments.">
        {(list) => (
          <SimpleGrid
            cols={{ base: 1, sm: 2, lg: 3 }}
            component="ul"
            style={{ listStyle: "none", padding: 0 }}
          >
            {list.map((app) => (
              <Card withBorder key={app.id} component="li">
                <Stack gap="xs">
                  <Group justify="space-between" wrap="nowrap">
                    <Anchor component={Link} to={`/apps/${app.id}`} fw={600}>
                      {app.name}
                    </Anchor>
                    <Badge variant="light" color="gray" c="dark">
                      {app.type}
                    </Badge>
                  </Group>
                  <Text size="xs" c="dimmed" ff="monospace">
                    {app.id}
                  </Text>
                  <Text size="sm" c="dimmed">
                    Created <LocalTime value={app.created_at} dateOnly />
                  </Text>
                </Stack>
              </Card>
            ))}
          </SimpleGrid>
        )}
      </PageState>
    </Stack>
  );
}
