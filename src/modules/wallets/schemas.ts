import { Type } from "typebox";
import { CHAINS } from "../../platform/chains/adapter.ts";
import { oneOf } from "../../platform/http/literals.ts";
import { AppAndIdParams } from "../../platform/http/params.ts";
import { exampleOf, nameSchemas, withExamples } from "../../platform/http/schema-docs.ts";
import { Body, Nullable, Timestamp } from "../../platform/http/schemas.ts";
import { App } from "../apps/schemas.ts";

const ChainType = oneOf(CHAINS, { description: "The wallet's chain" });

const NeverAnswered = Type.Null({ description: "Secret: kept encrypted, always answered as null" });
const common = {
  network_id: Type.String({ description: "Network of the chain (e.g. `testnet`, `1`, `devnet`)" }),
  account_id: Type.String({
    description: "The chain account: EVM address, Solana address, NEAR or WAX account",
  }),
  test_network: Type.Boolean({ description: "Whether the network is a test network" }),
};
const chainData = (chain: string) => ({
  description: `The ${chain} account; null unless the wallet's chain is ${chain}`,
});

const WalletData = Type.Object(
  {
    near: Nullable(Type.Object({ ...common, phrase_or_key: NeverAnswered }, chainData("near"))),
    evm: Nullable(Type.Object({ ...common, private_key: NeverAnswered }, chainData("evm"))),
    wax: Nullable(
      Type.Object(
        {
          ...common,
          permission: Type.String({ description: "The account's permission that signs (default `active`)" }),
          public_key: Type.String({ description: "`PUB_K1_…` form" }),
          private_key: NeverAnswered,
        },
        chainData("wax"),
      ),
    ),
    solana: Nullable(Type.Object({ ...common, private_key: NeverAnswered }, chainData("solana"))),
  },
  { description: "Every chain key is present; only the wallet's own chain is filled, the others are null" },
);

export const Wallet = Type.Object(
  {
    id: Type.String({ description: "The wallet's id (`wal_…`)" }),
    name: Type.String({ description: "The wallet's name" }),
    type: ChainType,
    managed: Type.Boolean({ description: "True when the service generated the key" }),
    wallet_data: WalletData,
    app: App,
    created_at: Timestamp,
    updated_at: Timestamp,
    magic_network: Type.String({ description: "`testnet` or `mainnet`, from `test_network`" }),
    balance: Nullable(
      Type.String({
        description:
          "The account's native balance (what pays for gas), a decimal string in `balance_currency`, read from the chain at `balance_checked_at` (reads are cached for 30 s); null until the chain could be read",
      }),
    ),
    balance_currency: Type.String({ description: "The chain's native currency: eth, sol, near or wax" }),
    balance_checked_at: Nullable(Timestamp),
    balance_low_threshold: Type.String({
      description:
        "Below this balance `wallet.balance_low` is sent (decimal string; the chain's default unless set: 0.01 ETH, 0.05 SOL, 1 NEAR, 10 WAX)",
    }),
    balance_low: Type.Boolean({ description: "Whether the last balance read is below the threshold" }),
  },
  { description: "A chain account whose key the service keeps sealed; secrets are always null" },
);

const Name = Type.String({ minLength: 1, maxLength: 200, description: "The wallet's name" });
const Secret = (description: string) => Type.String({ minLength: 1, maxLength: 1024, description });
const NetworkId = Type.String({
  minLength: 1,
  maxLength: 64,
  pattern: "^[A-Za-z0-9._:-]+$",
  description:
    "The network (an EVM chain id, `testnet`, `devnet`, …); defaults to the chain's test or main network",
});
const network = {
  network_id: Type.Optional(NetworkId),
  test_network: Type.Optional(
    Type.Boolean({
      description: "Whether the network is a test network; defaults to the server's sandbox mode",
    }),
  ),
};
const NearAccount = Type.String({
  minLength: 2,
  maxLength: 64,
  description: "NEAR account id; default and implicit accounts must be the key's own",
});
const WaxAccount = Type.String({
  minLength: 1,
  maxLength: 12,
  description: "WAX account name (1-12 of `a-z`, `1-5`, `.`); required for a WAX wallet",
});
const WaxPermission = Type.String({
  minLength: 1,
  maxLength: 12,
  description: "The account's permission that signs (default `active`)",
});
const PhraseOrKey = Secret("`ed25519:` secret key or BIP-39 seed phrase");
const EvmKey = Secret("secp256k1 private key, 64 hex digits");
const SolanaKey = Secret("base58 64-byte secret key, 32-byte seed, or JSON array of 64 bytes");
const WaxPrivate = Secret("K1 private key, WIF or `PVT_K1_`");
const WaxPublic = Type.String({
  minLength: 1,
  maxLength: 128,
  description: "The private key's public key, if given: must be its own",
});

const chainBody = (chain: string) => `Key material for a ${chain} wallet`;

const Threshold = Type.String({
  maxLength: 40,
  pattern: "^[0-9]+(\\.[0-9]+)?$",
  description:
    "Send `wallet.balance_low` when the balance falls below this (decimal, in the chain's native currency); defaults: 0.01 ETH, 0.05 SOL, 1 NEAR, 10 WAX",
});

export const CreateWalletBody = Body({
  name: Name,
  type: ChainType,
  balance_low_threshold: Type.Optional(Threshold),
  wallet_data: Type.Optional(
    Body(
      {
        near: Type.Optional(
          Body(
            {
              account_id: Type.Optional(NearAccount),
              phrase_or_key: Type.Optional(PhraseOrKey),
              ...network,
            },
            chainBody("near"),
          ),
        ),
        evm: Type.Optional(Body({ private_key: Type.Optional(EvmKey), ...network }, chainBody("evm"))),
        wax: Type.Optional(
          Body(
            {
              account: Type.Optional(WaxAccount),
              permission: Type.Optional(WaxPermission),
              public_key: Type.Optional(WaxPublic),
              private_key: Type.Optional(WaxPrivate),
              ...network,
            },
            chainBody("wax"),
          ),
        ),
        solana: Type.Optional(
          Body({ private_key: Type.Optional(SolanaKey), ...network }, chainBody("solana")),
        ),
      },
      "Only the key of the wallet's own chain; without key material the service generates the key",
    ),
  ),
});

export const UpdateWalletBody = Body({
  name: Type.Optional(Name),
  balance_low_threshold: Type.Optional(Threshold),
  wallet_data: Type.Optional(
    Body(
      {
        near: Type.Optional(
          Body(
            { account_id: Type.Optional(NearAccount), phrase_or_key: Type.Optional(PhraseOrKey) },
            "New NEAR key material, or `account_id` alone to rename the account",
          ),
        ),
        evm: Type.Optional(Body({ private_key: Type.Optional(EvmKey) }, "A new EVM key")),
        wax: Type.Optional(
          Body(
            {
              public_key: Type.Optional(WaxPublic),
              private_key: Type.Optional(WaxPrivate),
              account: Type.Optional(WaxAccount),
            },
            "A new WAX key, or `account` alone to move the wallet to another account",
          ),
        ),
        solana: Type.Optional(Body({ private_key: Type.Optional(SolanaKey) }, "A new Solana key")),
      },
      "Imported key material replaces the key (the wallet is then no longer managed)",
    ),
  ),
});

export const SandboxBalanceBody = Body({
  balance: Type.String({
    maxLength: 40,
    pattern: "^[0-9]+(\\.[0-9]+)?$",
    description: "The balance to set, a decimal in the chain's native currency (`0`: an unfunded wallet)",
  }),
});
withExamples(SandboxBalanceBody, { balance: "0" });

export const WalletParams = AppAndIdParams("wallet_id", "The wallet's id");

withExamples(Wallet, {
  id: "wal_01m87s3v8k4r2fjc23vtvkbtjf",
  name: "Minting wallet",
  type: "evm",
  managed: true,
  wallet_data: {
    near: null,
    evm: {
      network_id: "11155111",
      account_id: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
      test_network: true,
      private_key: null,
    },
    wax: null,
    solana: null,
  },
  app: exampleOf(App),
  created_at: "2026-11-24T21:30:00.000Z",
  updated_at: "2026-11-24T21:30:00.000Z",
  magic_network: "testnet",
  balance: "0.25",
  balance_currency: "eth",
  balance_checked_at: "2026-11-24T21:30:00.000Z",
  balance_low_threshold: "0.01",
  balance_low: false,
});
withExamples(CreateWalletBody, { name: "Minting wallet", type: "evm" });
withExamples(UpdateWalletBody, { name: "Minting wallet (main)" });

// Named in the OpenAPI document (components.schemas), referenced wherever they appear.
nameSchemas({ Wallet });
