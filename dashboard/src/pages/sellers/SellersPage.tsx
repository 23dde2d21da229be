import { Button, Group, List, Paper, Select, SimpleGrid, Stack, Text, TextInput, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import type { BodyOf, Kyc } from "@payments-backend/sdk";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useAppId, useClient } from "../../api.tsx";
import { ConfirmAction } from "../../components/ConfirmAction.tsx";
import { CopyField } from "../../components/CopyField.tsx";
import { LocalTime } from "../../components/LocalTime.tsx";
import { ErrorAlert, PageState } from "../../components/PageState.tsx";
import { StatusBadge } from "../wallets/StatusBadge.tsx";
import { stillNeeded } from "./requirements.ts";

type CreateBody = BodyOf<"/apps/{app_id}/kycs", "post">;

const STATUS_COLOURS: Record<Kyc["business_status"], string> = {
  pending: "gray",
  incomplete: "yellow",
  completed: "green",
};

/** The app's sellers, newest first (the SDK reads the KYC list's `{data: [...]}` wrapper). */
function useSellers() {
  const client = useClient();
  const appId = useAppId();
  return useQuery({
    queryKey: ["sellers", appId],
    queryFn: async () => {
      const page = await client.kyc.list(appId).page({ limit: 100 });
      return page.data;
    },
  });
}

function CreateSellerForm() {
  const client = useClient();
  const appId = useAppId();
  const queryClient = useQueryClient();
  const [identifier, setIdentifier] = useState("");
  const [email, setEmail] = useState("");
  const [type, setType] = useState<"app-user" | "app">("app-user");
  const create = useMutation({
    mutationFn: (body: CreateBody) => client.kyc.create(appId, body),
    onSuccess: async ({ data }) => {
      notifications.show({
        color: "green",
        message: `Seller ${data.identifier} ready: copy the widget link`,
      });
      setIdentifier("");
      setEmail("");
      await queryClient.invalidateQueries({ queryKey: ["sellers", appId] });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({ identifier, type, ...(email && { email }) });
  };
  return (
    <Paper withBorder p="md" component="form" onSubmit={submit} aria-labelledby="new-seller">
      <Stack gap="sm">
        <Title order={2} size="h4" id="new-seller">
          New seller
        </Title>
        <TextInput
          label="Seller identifier"
          description="Your own id for the seller; asking again for one that exists answers the same seller"
          required
          value={identifier}
          onChange={(e) => setIdentifier(e.currentTarget.value)}
        />
        <TextInput
          label="Seller email (optional)"
          description="Pre-filled in the widget"
          type="email"
          value={email}
          onChange={(e) => setEmail(e.currentTarget.value)}
        />
        <Select
          label="Kind"
          data={[
            { value: "app-user", label: "A seller of the marketplace" },
            { value: "app", label: "The app's own payout account" },
          ]}
          value={type}
          allowDeselect={false}
          onChange={(value) => value && setType(value as typeof type)}
        />
        {create.error && <ErrorAlert error={create.error} />}
        <Button type="submit" loading={create.isPending} style={{ alignSelf: "flex-start" }}>
          Add seller
        </Button>
      </Stack>
    </Paper>
  );
}

function SellerCard({ kyc }: { kyc: Kyc }) {
  const client = useClient();
  const appId = useAppId();
  const queryClient = useQueryClient();
  const refreshList = () => queryClient.invalidateQueries({ queryKey: ["sellers", appId] });
  const refresh = useMutation({
    mutationFn: () => client.kyc.refreshToken(appId, kyc.id),
    onSuccess: async () => {
      notifications.show({ color: "green", message: `New widget link for ${kyc.identifier}` });
      await refreshList();
    },
  });
  const setActive = useMutation({
    mutationFn: (active: boolean) => client.kyc.update(appId, kyc.id, { active }),
    onSuccess: async ({ data }) => {
      notifications.show({
        color: "green",
        message: `${data.identifier} ${data.active ? "activated" : "deactivated"}`,
      });
      await refreshList();
    },
  });
  const needed = stillNeeded(kyc);
  return (
    <Paper withBorder p="md" component="article" aria-label={`Seller ${kyc.identifier}`}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Title order={3} size="h5" style={{ wordBreak: "break-all" }}>
            {kyc.identifier}
          </Title>
          <Group gap={4}>
            <StatusBadge color={STATUS_COLOURS[kyc.business_status]}>{kyc.business_status}</StatusBadge>
            {!kyc.active && <StatusBadge color="red">deactivated</StatusBadge>}
          </Group>
        </Group>
        <Text size="sm" c="dimmed">
          {kyc.email ?? "No email"} · {kyc.type === "app" ? "the app's own account" : "seller"} · added{" "}
          <LocalTime value={kyc.created_at} />
        </Text>
        <Text size="sm">
          Payments {kyc.charges_enabled ? "enabled" : "not enabled yet"}; payouts{" "}
          {kyc.payouts_enabled ? "enabled" : "not enabled yet"}.
        </Text>
        {needed.items.length > 0 && (
          <div>
            <Text size="sm" fw={500}>
              Still needed
            </Text>
            <List size="sm">
              {needed.items.map((item) => (
                <List.Item key={item}>{item}</List.Item>
              ))}
            </List>
          </div>
        )}
        {needed.errors.length > 0 && (
          <List size="sm" c="red.9">
            {needed.errors.map((error) => (
              <List.Item key={error}>{error}</List.Item>
            ))}
          </List>
        )}
        <CopyField label={`Widget link for ${kyc.identifier}`} value={kyc.widget_url} />
        <Group gap="xs" wrap="wrap">
          <ConfirmAction
            label="Refresh link"
            color="red.9"
            variant="default"
            title={`New widget link for ${kyc.identifier}?`}
            onConfirm={() => refresh.mutateAsync()}
          >
            The current link stops working at once; send the seller the new one.
          </ConfirmAction>
          {kyc.active ? (
            <ConfirmAction
              color="red.9"
              variant="default"
              label="Deactivate"
              title={`Deactivate ${kyc.identifier}?`}
              onConfirm={() => setActive.mutateAsync(false)}
            >
              Prices linked to this seller take no new payments until it is activated again.
            </ConfirmAction>
          ) : (
            <Button variant="light" loading={setActive.isPending} onClick={() => setActive.mutate(true)}>
              Activate
            </Button>
          )}
        </Group>
        {(refresh.error ?? setActive.error) && <ErrorAlert error={refresh.error ?? setActive.error} />}
      </Stack>
    </Paper>
  );
}

export function SellersPage() {
  const sellers = useSellers();
  return (
    <Stack gap="lg">
      <Title order={1}>Sellers</Title>
      <Text c="dimmed" size="sm">
        Each seller verifies their identity and bank account in the hosted widget; send them its link.
      </Text>
      <CreateSellerForm />
      <PageState query={sellers} empty="No sellers yet">
        {(list: Kyc[]) => (
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            {list.map((kyc) => (
              <SellerCard key={kyc.id} kyc={kyc} />
            ))}
          </SimpleGrid>
        )}
      </PageState>
    </Stack>
  );
}
