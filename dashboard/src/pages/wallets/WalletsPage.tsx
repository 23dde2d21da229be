import { Anchor, Group, Paper, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import type { Wallet } from "@payments-backend/sdk";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useAppId, useClient } from "../../api.tsx";
import { ConfirmAction } from "../../components/ConfirmAction.tsx";
import { CopyField } from "../../components/CopyField.tsx";
import { LocalTime } from "../../components/LocalTime.tsx";
import { PageState } from "../../components/PageState.tsx";
import { CreateWalletForm } from "./CreateWalletForm.tsx";
import { CHAIN_LABELS, chainData, walletAddressUrl } from "./explorers.ts";
import { useWallets } from "./queries.ts";
import { StatusBadge } from "./StatusBadge.tsx";

function WalletCard({ wallet }: { wallet: Wallet }) {
  const client = useClient();
  const appId = useAppId();
  const queryClient = useQueryClient();
  const data = chainData(wallet);
  const explorer = walletAddressUrl(wallet);
  const remove = useMutation({
    mutationFn: () => client.wallets.delete(appId, wallet.id),
    onSuccess: async () => {
      notifications.show({ color: "green", message: `Wallet ${wallet.name} deleted` });
      await queryClient.invalidateQueries({ queryKey: ["wallets", appId] });
    },
  });
  return (
    <Paper withBorder p="md" component="article" aria-label={`Wallet ${wallet.name}`}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Title order={3} size="h5">
            {wallet.name}
          </Title>
          <Group gap={4}>
            <StatusBadge color="brand">{CHAIN_LABELS[wallet.type]}</StatusBadge>
            <StatusBadge color={wallet.magic_network === "testnet" ? "orange" : "blue"}>
              {wallet.magic_network}
            </StatusBadge>
            <StatusBadge color="gray">{wallet.managed ? "generated" : "imported"}</StatusBadge>
          </Group>
        </Group>
        {data && <CopyField label="Address" value={data.account_id} />}
        <Group gap="md" wrap="wrap">
          {data && (
            <Text size="sm" c="dimmed">
              Network {data.network_id}
            </Text>
          )}
          <Text size="sm" c="dimmed">
            Created <LocalTime value={wallet.created_at} />
          </Text>
          {explorer && (
            <Anchor href={explorer} target="_blank" rel="noreferrer" size="sm">
              View {wallet.name} in the explorer
            </Anchor>
          )}
        </Group>
        <ConfirmAction
          label="Delete"
          title={`Delete wallet ${wallet.name}?`}
          onConfirm={() => remove.mutateAsync()}
        >
          The key is destroyed with it. A wallet a trigger uses cannot be deleted.
        </ConfirmAction>
      </Stack>
    </Paper>
  );
}

export function WalletsPage() {
  const wallets = useWallets();
  return (
    <Stack gap="lg">
      <Title order={1}>Wallets</Title>
      <CreateWalletForm />
      <PageState query={wallets} empty="No wallets yet">
        {(list: Wallet[]) => (
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            {list.map((wallet) => (
              <WalletCard key={wallet.id} wallet={wallet} />
            ))}
          </SimpleGrid>
        )}
      </PageState>
    </Stack>
  );
}
