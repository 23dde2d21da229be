import { Button, Paper, PasswordInput, Radio, Select, Stack, TextInput, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import type { BodyOf } from "@payments-backend/sdk";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useAppId, useClient } from "../../api.tsx";
import { ErrorAlert } from "../../components/PageState.tsx";
import { CHAIN_LABELS, type Chain } from "./explorers.ts";

type CreateBody = BodyOf<"/wallets/{app_id}", "post">;
type Network = "default" | "test" | "main";

const CHAINS = (Object.keys(CHAIN_LABELS) as Chain[]).map((value) => ({ value, label: CHAIN_LABELS[value] }));
const NETWORKS = [
  { value: "default", label: "The server's default" },
  { value: "test", label: "Test network" },
  { value: "main", label: "Main network" },
];
const SECRET_LABEL: Record<Chain, string> = {
  evm: "Private key (64 hex digits)",
  solana: "Private key (base58 or JSON array)",
  near: "Secret key (ed25519:…) or seed phrase",
  wax: "Private key (WIF or PVT_K1_…)",
};

/** The body for one chain: only that chain's key under `wallet_data`, as the service requires. */
function walletBody(
  name: string,
  chain: Chain,
  network: Network,
  fields: { secret: string; account: string },
  importing: boolean,
): CreateBody {
  const own: Record<string, string | boolean> = {};
  if (network !== "default") own.test_network = network === "test";
  if (importing) own[chain === "near" ? "phrase_or_key" : "private_key"] = fields.secret;
  if (chain === "wax") own.account = fields.account;
  if (chain === "near" && fields.account) own.account_id = fields.account;
  const data = Object.keys(own).length > 0 ? { [chain]: own } : undefined;
  return { name, type: chain, ...(data && { wallet_data: data }) } as CreateBody;
}

export function CreateWalletForm() {
  const client = useClient();
  const appId = useAppId();
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const [chain, setChain] = useState<Chain>("evm");
  const [network, setNetwork] = useState<Network>("default");
  const [source, setSource] = useState<"generate" | "import">("generate");
  const [secret, setSecret] = useState("");
  const [account, setAccount] = useState("");
  const importing = source === "import";

  const create = useMutation({
    mutationFn: (body: CreateBody) => client.wallets.create(appId, body),
    onSuccess: async (wallet) => {
      notifications.show({ color: "green", message: `Wallet ${wallet.name} created` });
      setName("");
      setSecret("");
      setAccount("");
      await queryClient.invalidateQueries({ queryKey: ["wallets", appId] });
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(walletBody(name, chain, network, { secret, account }, importing));
  };

  return (
    <Paper withBorder p="md" component="form" onSubmit={submit} aria-labelledby="new-wallet">
      <Stack gap="sm">
        <Title order={2} size="h4" id="new-wallet">
          New wallet
        </Title>
        <TextInput label="Name" required value={name} onChange={(e) => setName(e.currentTarget.value)} />
        <Select
          label="Chain"
          data={CHAINS}
          value={chain}
          onChange={(value) => value && setChain(value as Chain)}
          allowDeselect={false}
        />
        <Select
          label="Network"
          data={NETWORKS}
          value={network}
          onChange={(value) => value && setNetwork(value as Network)}
          allowDeselect={false}
        />
        <Radio.Group label="Key" value={source} onChange={(value) => setSource(value as typeof source)}>
          <Stack gap={4} mt={4}>
            <Radio value="generate" label="Generate a new key (kept encrypted by the service)" />
            <Radio value="import" label="Import an existing key" />
          </Stack>
        </Radio.Group>
        {chain === "wax" && (
          <TextInput
            label="WAX account"
            description="WAX accounts exist only on chain: name the account this key controls"
            required
            value={account}
            onChange={(e) => setAccount(e.currentTarget.value)}
          />
        )}
        {chain === "near" && importing && (
          <TextInput
            label="NEAR account id (optional)"
            description="Defaults to the key's implicit account"
            value={account}
            onChange={(e) => setAccount(e.currentTarget.value)}
          />
        )}
        {importing && (
          <PasswordInput
            label={SECRET_LABEL[chain]}
            required
            autoComplete="off"
            value={secret}
            onChange={(e) => setSecret(e.currentTarget.value)}
          />
        )}
        {create.error && <ErrorAlert error={create.error} />}
        <Button type="submit" loading={create.isPending} style={{ alignSelf: "flex-start" }}>
          {importing ? "Import wallet" : "Create wallet"}
        </Button>
      </Stack>
    </Paper>
  );
}
