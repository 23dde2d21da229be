import { Button, Group, NumberInput, Paper, Select, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
// The service's own arithmetic and rules (plain functions, no imports): the plan shown here is
// what the service checks and charges.
import {
  MAX_PROOF_NODES,
  treeCost,
  VALID_DEPTH_SIZE_PAIRS,
  validateTree,
} from "../../../../src/platform/chains/solana-trees.ts";
import { useAppId, useClient } from "../../api.tsx";
import { ErrorAlert } from "../../components/PageState.tsx";
import { Notice } from "../wallets/Notice.tsx";

const DEPTHS = [...new Set(VALID_DEPTH_SIZE_PAIRS.map((p) => p.maxDepth))];
const buffersFor = (depth: number) =>
  VALID_DEPTH_SIZE_PAIRS.filter((p) => p.maxDepth === depth).map((p) => p.maxBufferSize);
/** The smallest canopy whose proofs still fit one transaction. */
const minimumCanopy = (depth: number) => Math.max(0, depth - MAX_PROOF_NODES);

const LAMPORTS_PER_SOL = 1_000_000_000n;
const integer = new Intl.NumberFormat();

/** Lamports as SOL, to four decimals, without going through a float for the whole part. */
function sol(lamports: bigint): string {
  const whole = lamports / LAMPORTS_PER_SOL;
  const fraction = Number(lamports % LAMPORTS_PER_SOL) / Number(LAMPORTS_PER_SOL);
  return `${integer.format(whole)}${fraction.toFixed(4).slice(1)} SOL`;
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={500} style={{ fontVariantNumeric: "tabular-nums" }}>
        {value}
      </Text>
    </div>
  );
}

/**
 * Plans a compressed-NFT tree (depth, change-log buffer, canopy) with its account size, rent and
 * capacity as the owner changes them, and creates it with the chosen Solana wallet paying.
 */
export function TreePlanner({ walletId }: { walletId: string }) {
  const client = useClient();
  const appId = useAppId();
  const queryClient = useQueryClient();
  const [depth, setDepth] = useState(14);
  const [buffer, setBuffer] = useState(64);
  const [canopy, setCanopy] = useState(minimumCanopy(14));

  const problems = validateTree(depth, buffer, canopy);
  const cost = problems.length === 0 ? treeCost(depth, buffer, canopy) : null;

  const chooseDepth = (value: number) => {
    setDepth(value);
    const buffers = buffersFor(value);
    if (!buffers.includes(buffer)) setBuffer(buffers[0]);
    setCanopy((current) => Math.min(Math.max(current, minimumCanopy(value)), value - 1));
  };

  const create = useMutation({
    mutationFn: () =>
      client.solana.createTree(appId, walletId, {
        max_depth_size_pair: { max_depth: depth, max_buffer_size: buffer },
        canopy_depth: canopy,
      }),
    onSuccess: async (tree) => {
      notifications.show({ color: "green", message: `Tree ${tree.address} is being created` });
      await queryClient.invalidateQueries({ queryKey: ["trees", appId, walletId] });
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };

  return (
    <Paper withBorder p="md" component="form" onSubmit={submit} aria-labelledby="tree-planner">
      <Stack gap="sm">
        <Title order={2} size="h4" id="tree-planner">
          Plan a tree
        </Title>
        <Group grow wrap="wrap" align="flex-start">
          <Select
            label="Maximum depth"
            description="Capacity is 2 to this power"
            data={DEPTHS.map((d) => ({ value: String(d), label: String(d) }))}
            value={String(depth)}
            allowDeselect={false}
            onChange={(value) => value && chooseDepth(Number(value))}
            miw={140}
          />
          <Select
            label="Buffer size"
            description="Changes the tree takes at once"
            data={buffersFor(depth).map((b) => ({ value: String(b), label: String(b) }))}
            value={String(buffer)}
            allowDeselect={false}
            onChange={(value) => value && setBuffer(Number(value))}
            miw={140}
          />
          <NumberInput
            label="Canopy depth"
            description={`Levels cached on chain; at least ${minimumCanopy(depth)} here`}
            min={0}
            max={depth - 1}
            allowDecimal={false}
            allowNegative={false}
            value={canopy}
            onChange={(value) => setCanopy(typeof value === "number" ? value : Number(value) || 0)}
            miw={140}
          />
        </Group>
        {cost ? (
          <SimpleGrid cols={{ base: 2, sm: 4 }} aria-live="polite">
            <Figure label="Capacity" value={`${integer.format(2 ** depth)} NFTs`} />
            <Figure label="Account size" value={`${integer.format(cost.space)} bytes`} />
            <Figure label="Rent (lamports)" value={integer.format(cost.lamports)} />
            <Figure label="Rent" value={`≈ ${sol(cost.lamports)}`} />
          </SimpleGrid>
        ) : (
          <Notice title="This tree cannot be created">{problems.map((p) => p.message).join("; ")}</Notice>
        )}
        <Text size="xs" c="dimmed">
          The wallet pays the rent, plus a small tree-config account and the transaction fee.
        </Text>
        {create.error && <ErrorAlert error={create.error} />}
        <Button type="submit" loading={create.isPending} disabled={!cost} style={{ alignSelf: "flex-start" }}>
          Create tree
        </Button>
      </Stack>
    </Paper>
  );
}
