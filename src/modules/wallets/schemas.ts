import { Type } from "typebox";
import { CHAINS } from "../../platform/chains/adapter.ts";
import { oneOf } from "../../platform/http/literals.ts";
import { Body, Nullable, nameSchemas, Timestamp } from "../../platform/http/schemas.ts";
import { App } from "../apps/schemas.ts";

const ChainType = oneOf(CHAINS, { description: "The wallet's chain" });

const NeverAnswered = Type.Null({ description: "Secret: kept encrypted, always answered as null" });
const common = {
  network_id: Type.String({ description: "Network of the chain (e.g. `testnet`, `1`, `devnet`)" }),
  account_id: Type.String(),
  test_network: Type.Boolean(),
};

const WalletData = Type.Object(
  {
    near: Nullable(Type.Object({ ...common, phrase_or_key: NeverAnswered })),
    evm: Nullable(Type.Object({ ...common, private_key: NeverAnswered })),
    wax: Nullable(
      Type.Object({
        ...common,
        permission: Type.String(),
        public_key: Type.String({ description: "`PUB_K1_…` form" }),
        private_key: NeverAnswered,
      }),
    ),
    solana: Nullable(Type.Object({ ...common, private_key: NeverAnswered })),
  },
  { description: "Every chain key is present; only the wallet's own chain is filled, the others are null" },
);

export const Wallet = Type.Object({
  id: Type.String(),
  name: Type.String(),
  type: ChainType,
  managed: Type.Boolean({ description: "True when the service generated the key" }),
  wallet_data: WalletData,
  app: App,
  created_at: Timestamp,
  updated_at: Timestamp,
  magic_network: Type.String({ description: "`testnet` or `mainnet`, from `test_network`" }),
});

const Name = Type.String({ minLength: 1, maxLength: 200 });
const Secret = (description: string) => Type.String({ minLength: 1, maxLength: 1024, description });
const NetworkId = Type.String({ minLength: 1, maxLength: 64, pattern: "^[A-Za-z0-9._:-]+$" });
const network = { network_id: Type.Optional(NetworkId), test_network: Type.Optional(Type.Boolean()) };
const NearAccount = Type.String({ minLength: 2, maxLength: 64 });
const WaxAccount = Type.String({ minLength: 1, maxLength: 12 });
const PhraseOrKey = Secret("`ed25519:` secret key or BIP-39 seed phrase");
const EvmKey = Secret("secp256k1 private key, 64 hex digits");
const SolanaKey = Secret("base58 64-byte secret key, 32-byte seed, or JSON array of 64 bytes");
const WaxPrivate = Secret("K1 private key, WIF or `PVT_K1_`");
const WaxPublic = Type.String({ minLength: 1, maxLength: 128 });

export const CreateWalletBody = Body({
  name: Name,
  type: ChainType,
  wallet_data: Type.Optional(
    Body(
      {
        near: Type.Optional(
          Body({
            account_id: Type.Optional(NearAccount),
            phrase_or_key: Type.Optional(PhraseOrKey),
            ...network,
          }),
        ),
        evm: Type.Optional(Body({ private_key: Type.Optional(EvmKey), ...network })),
        wax: Type.Optional(
          Body({
            account: Type.Optional(WaxAccount),
            permission: Type.Optional(WaxAccount),
            public_key: Type.Optional(WaxPublic),
            private_key: Type.Optional(WaxPrivate),
            ...network,
          }),
        ),
        solana: Type.Optional(Body({ private_key: Type.Optional(SolanaKey), ...network })),
      },
      "Only the key of the wallet's own chain; without key material the service generates the key",
    ),
  ),
});

export const UpdateWalletBody = Body({
  name: Type.Optional(Name),
  wallet_data: Type.Optional(
    Body(
      {
        near: Type.Optional(
          Body({ account_id: Type.Optional(NearAccount), phrase_or_key: Type.Optional(PhraseOrKey) }),
        ),
        evm: Type.Optional(Body({ private_key: Type.Optional(EvmKey) })),
        wax: Type.Optional(
          Body({
            public_key: Type.Optional(WaxPublic),
            private_key: Type.Optional(WaxPrivate),
            account: Type.Optional(WaxAccount),
          }),
        ),
        solana: Type.Optional(Body({ private_key: Type.Optional(SolanaKey) })),
      },
      "Imported key material replaces the key (the wallet is then no longer managed)",
    ),
  ),
});

export const WalletParams = Type.Object({
  app_id: Type.String({ maxLength: 64 }),
  wallet_id: Type.String({ maxLength: 64 }),
});

// Named in the OpenAPI document (components.schemas), referenced wherever they appear.
nameSchemas({ Wallet });
