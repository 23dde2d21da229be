import { Anchor, Group, Paper, Select, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import type { components, Wallet } from "@payments-backend/sdk";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "react-router";
import { useAppId, useClient } from "../../api.tsx";
import { LocalTime } from "../../components/LocalTime.tsx";
import { PageState } from "../../components/PageState.tsx";
import { addressUrl } from "../wallets/explorers.ts";
import { Notice } from "../wallets/Notice.tsx";
import { useWallets } from "../wallets/queries.ts";
import { StatusBadge } from "../wallets/StatusBadge.tsx";
import { TreePlanner } from "./TreePlanner.tsx";

type Tree = components["schemas"]["Tree"];

const STATUS_COLOURS: Record<Tree["status"], string> = { pending: "gray", confirmed: "green", failed: "red" };

/** The wallet's trees, newest first; polled while a creation is still on its way to the chain. */
function useTrees(walletId: string) {
  const client = useClient();
  const appId = useAppId();
  return useQuery({
    queryKey: ["trees", appId, walletId],
    queryFn: () => client.solana.listTrees(appId, walletId).toArray(),
    refetchInterval: (query) => (query.state.data?.some((tree) => tree.status === "pending") ? 2000 : false),
  });
}

function TreeCard({ tree, wallet }: { tree: Tree; wallet: Wallet }) {
  const network = wallet.wallet_data.solana;
  const explorer = network
    ? addressUrl("solana", network.network_id, network.test_network, tree.address)
    : null;
  return (
    <Paper withBorder p="md" component="article" aria-label={`Tree ${tree.address}`}>
      <Stack gap={6}>
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Text fw={600} size="sm" style={{ wordBreak: "break-all" }}>
            {tree.address}
          </Text>
          <StatusBadge color={STATUS_COLOURS[tree.status]}>{tree.status}</StatusBadge>
        </Group>
        <Text size="sm">
          Depth {tree.max_depth} · buffer {tree.max_buffer_size} · canopy {tree.canopy_depth} ·{" "}
          {new Intl.NumberFormat().format(2 ** tree.max_depth)} NFTs
        </Text>
        <Text size="sm" c="dimmed">
          {new Intl.NumberFormat().format(tree.account_size)} bytes · rent{" "}
          {new Intl.NumberFormat().format(BigInt(tree.rent_lamports))} lamports · created{" "}
          <LocalTime value={tree.created_at} />
        </Text>
        {tree.error && (
          <Text size="sm" c="red.9">
            {tree.error}
          </Text>
        )}
        {explorer && (
          <Anchor href={explorer} target="_blank" rel="noreferrer" size="sm">
            View tree {tree.address.slice(0, 8)}… in the explorer
          </Anchor>
        )}
      </Stack>
    </Paper>
  );
}

function WalletTrees({ wallet }: { wallet: Wallet }) {
  const trees = useTrees(wallet.id);
  return (
    <Stack gap="lg">
      <TreePlanner walletId={wallet.id} />
      <Title order={2} size="h4">
        Trees of {wallet.name}
      </Title>
      <PageState query={trees} empty="No trees yet">
        {(list: Tree[]) => (
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            {list.map((tree) => (
              <TreeCard key={tree.id} tree={tree} wallet={wallet} />
            ))}
          </SimpleGrid>
        )}
      </PageState>
    </Stack>
  );
}

export function TreesPage() {
  const appId = useAppId();
  const wallets = useWallets();
  const [chosen, setChosen] = useState<string | null>(null);
  return (
    <Stack gap="lg">
      <Title order={1}>Solana trees</Title>
      <Text c="dimmed" size="sm">
        Merkle trees hold compressed NFTs; a Solana wallet of the app creates them and pays their rent.
      </Text>
      <PageState query={wallets}>
        {(all: Wallet[]) => {
          const solana = all.filter((w) => w.type === "solana");
          if (solana.length === 0) {
            return (
              <Notice title="No Solana wallet yet">
                Trees are created by a Solana wallet.{" "}
                <Anchor component={Link} to={`/apps/${appId}/wallets`}>
                  Create a Solana wallet
                </Anchor>{" "}
                first.
              </Notice>
            );
          }
          const wallet = solana.find((w) => w.id === chosen) ?? solana[0];
          return (
            <Stack gap="lg">
              <Select
                label="Solana wallet"
                data={solana.map((w) => ({ value: w.id, label: w.name }))}
                value={wallet.id}
                allowDeselect={false}
                onChange={setChosen}
              />
              <WalletTrees key={wallet.id} wallet={wallet} />
            </Stack>
          );
        }}
      </PageState>
    </Stack>
  );
}
