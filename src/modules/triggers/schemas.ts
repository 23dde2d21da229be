import { Type } from "typebox";
import { AppAndIdParams } from "../../platform/http/params.ts";
import { exampleOf, nameSchemas, withExamples } from "../../platform/http/schema-docs.ts";
import { Body, Nullable, Timestamp } from "../../platform/http/schemas.ts";
import { App } from "../apps/schemas.ts";
import { Wallet } from "../wallets/schemas.ts";
import { CallData, CallDataInput } from "./call-schemas.ts";

const ParamsData = Type.Record(Type.String(), Type.Unknown(), {
  description:
    "Parameter descriptors keyed by type: number, string, boolean, object, array; each one " +
    "descriptor {name, desc, optional, nullable, …} or a list of them. Read back as written " +
    "(docs/triggers.md)",
});
const ParamsInput = Type.Record(Type.String(), Type.Unknown(), {
  description: "Parameter values keyed by parameter name",
});

const ENABLED = "Whether `{{custom_address}}` renders custom_address (otherwise it renders null)";
const CUSTOM_ADDRESS = "An address of the wallet's chain, inserted where the call says `{{custom_address}}`";

export const Trigger = Type.Object(
  {
    id: Type.String({ description: "The trigger's id (`trg_…`)" }),
    name: Type.String({ description: "The trigger's name" }),
    custom_address_enabled: Type.Boolean({ description: ENABLED }),
    custom_address: Nullable(Type.String({ description: CUSTOM_ADDRESS })),
    call_data: CallData,
    app: App,
    wallet: Wallet,
    params_data: ParamsData,
    params_data_input: ParamsInput,
    params_data_example: Type.String({ description: "JSON text of a valid params_data_input" }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { description: "A contract call on the chain of one of the app's wallets, run once a payment is paid" },
);

const Name = Type.String({ minLength: 1, maxLength: 200, description: "The trigger's name" });
const CustomAddress = Nullable(Type.String({ minLength: 1, maxLength: 128, description: CUSTOM_ADDRESS }));
const Example = Type.String({
  maxLength: 20_000,
  description:
    "JSON text of an example input; defaults to params_data_input, or one made from the descriptors",
});
const Enabled = Type.Boolean({ description: `${ENABLED}; true requires custom_address (default false)` });

/** What a trigger may be given besides its name, wallet and call, on creation as on a change. */
const optionalFields = {
  params_data: Type.Optional(ParamsData),
  params_data_input: Type.Optional(ParamsInput),
  params_data_example: Type.Optional(Example),
  custom_address_enabled: Type.Optional(Enabled),
  custom_address: Type.Optional(CustomAddress),
};

export const CreateTriggerBody = Body({
  name: Name,
  wallet_id: Type.String({ minLength: 1, maxLength: 64, description: "A wallet of the same app" }),
  call_data: CallDataInput,
  ...optionalFields,
});

export const UpdateTriggerBody = Body({
  name: Type.Optional(Name),
  wallet_id: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 64,
      description: "Another wallet of the same app; another chain needs its call_data",
    }),
  ),
  call_data: Type.Optional(CallDataInput),
  ...optionalFields,
});

export const RenderBody = Body({ params_data_input: Type.Optional(ParamsInput) });

const Unknown = Type.Unknown();
const Text = (description: string) => Type.String({ description });
export const RenderedCall = Type.Object(
  {
    chain: Text("The chain the call is for: near, evm, wax or solana"),
    evm: Type.Optional(
      Type.Object(
        {
          from: Text("The wallet's address, which signs"),
          to: Text("The contract's address"),
          data: Type.String({ description: "ABI-encoded calldata, 0x hex" }),
          value: Text("Wei sent with the call (integer text)"),
          gas_limit: Nullable(Text("The gas limit; null when estimated at send time")),
          function_name: Text("The ABI function called"),
          args: Type.Array(Unknown, { description: "The arguments, in the function's order" }),
        },
        { description: "An EVM call (viem encodeFunctionData)" },
      ),
    ),
    near: Type.Optional(
      Type.Object(
        {
          signer_id: Text("The wallet's account, which signs"),
          receiver_id: Text("The contract's account"),
          method_name: Text("The contract method called"),
          method_type: Text("`change` or `view`"),
          args: Type.Record(Type.String(), Unknown, { description: "The JSON arguments" }),
          args_base64: Text("The exact argument bytes sent (UTF-8 JSON), base64"),
          gas: Text("Gas in gas units (integer text)"),
          deposit: Type.String({ description: "Attached deposit in yoctoNEAR (integer text)" }),
        },
        { description: "A NEAR function call" },
      ),
    ),
    wax: Type.Optional(
      Type.Object(
        {
          account: Text("The contract's account"),
          name: Text("The action's name"),
          authorization: Type.Array(
            Type.Object({
              actor: Text("The wallet's account"),
              permission: Text("The wallet's permission"),
            }),
            { description: "Who signs the action" },
          ),
          data: Type.String({ description: "Action data serialized with the ABI, hex" }),
          args: Type.Record(Type.String(), Unknown, { description: "The action's fields" }),
        },
        { description: "A WAX action" },
      ),
    ),
    solana: Type.Optional(
      Type.Object(
        {
          fee_payer: Text("The wallet's address, which pays the fee"),
          program_id: Text("The program called"),
          accounts: Type.Array(
            Type.Object({
              address: Text("The account's address"),
              is_signer: Type.Boolean({ description: "Whether the account signs" }),
              is_writable: Type.Boolean({ description: "Whether the instruction writes to the account" }),
            }),
            { description: "The instruction's accounts, in order" },
          ),
          data_base64: Text("The instruction data, base64"),
          data_hex: Text("The instruction data, hex"),
          compute_units: Nullable(Text("The compute-unit limit; null for the default")),
        },
        { description: "A Solana instruction" },
      ),
    ),
  },
  { description: "The exact call a trigger makes for an input; only the trigger's chain is present" },
);

export const TriggerParams = AppAndIdParams("trigger_id", "The trigger's id");

const EVM_CALL = {
  contract_id: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
  method_name: "mintTo",
  abi: '[{"type":"function","name":"mintTo","stateMutability":"nonpayable","inputs":[{"name":"to","type":"address"},{"name":"amount","type":"uint256"}],"outputs":[]}]',
  gas_limit: "100000",
  data_input: { to: "{{receiver}}", amount: "{{quantity}}" },
};
const PARAMS_DATA = {
  string: { name: "receiver", desc: "Who receives the tokens", is_ethereum_address: true },
  number: { name: "quantity", desc: "How many" },
};
const PARAMS_INPUT = { receiver: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", quantity: 3 };
withExamples(Trigger, {
  id: "trg_01m87s3v8k4r2fjc23vtvkbtjg",
  name: "Mint tickets",
  custom_address_enabled: false,
  custom_address: null,
  call_data: {
    near: null,
    evm: { ...EVM_CALL, method_type: "nonpayable", template: null, data: [] },
    wax: null,
    solana: null,
  },
  app: exampleOf(App),
  wallet: exampleOf(Wallet),
  params_data: PARAMS_DATA,
  params_data_input: PARAMS_INPUT,
  params_data_example: JSON.stringify(PARAMS_INPUT),
  created_at: "2026-11-24T21:30:00.000Z",
  updated_at: "2026-11-24T21:30:00.000Z",
});
withExamples(CreateTriggerBody, {
  name: "Mint tickets",
  wallet_id: "wal_01m87s3v8k4r2fjc23vtvkbtjf",
  call_data: { evm: EVM_CALL },
  params_data: PARAMS_DATA,
  params_data_input: PARAMS_INPUT,
});
withExamples(UpdateTriggerBody, { name: "Mint tickets (VIP)" });
withExamples(RenderBody, { params_data_input: PARAMS_INPUT });
withExamples(RenderedCall, {
  chain: "evm",
  evm: {
    from: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
    to: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
    data: "0x449a52f800000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c80000000000000000000000000000000000000000000000000000000000000003",
    value: "0",
    gas_limit: "100000",
    function_name: "mintTo",
    args: ["0x70997970C51812dc3A010C7d01b50e0d17dc79C8", "3"],
  },
});

// Named in the OpenAPI document (components.schemas), referenced wherever they appear.
nameSchemas({ Trigger, RenderedCall });
