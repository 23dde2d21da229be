import { Type } from "typebox";
import { Body, Nullable } from "../../platform/http/schemas.ts";

const Digits = (description: string) => Type.String({ pattern: "^[0-9]{1,40}$", description });
const Template = Type.String({
  maxLength: 20_000,
  description: 'JSON text of the whole argument value; `"{{name}}"` inserts a parameter (docs/triggers.md)',
});
const JsonObject = (description: string) => Type.Record(Type.String(), Type.Unknown(), { description });
const ArgList = (description: string) =>
  Type.Array(Type.Record(Type.String(), Type.Unknown()), { maxItems: 64, description });
const Abi = (description: string) => Type.String({ minLength: 2, maxLength: 200_000, description });
const MethodName = Type.String({
  minLength: 1,
  maxLength: 256,
  description: "The method or function called",
});
const DATA_INPUT = "Argument values by name; strings may reference parameters as {{name}}; wins over `data`";
/** How a call on any chain takes the payment's parameters into its arguments. */
const parameterFields = {
  data_input: Type.Optional(JsonObject(DATA_INPUT)),
  template: Type.Optional(Nullable(Template)),
};

const NearCallInput = Body(
  {
    contract_id: Type.String({ minLength: 2, maxLength: 64, description: "The contract's account id" }),
    method_name: MethodName,
    method_type: Type.Optional(
      Type.Union([Type.Literal("change"), Type.Literal("view")], {
        default: "change",
        description: "`change` (a signed transaction, the default) or `view`",
      }),
    ),
    attached_deposit_amount: Type.Optional(Digits("Attached deposit in yoctoNEAR (integer text); default 0")),
    gas_amount: Type.Optional(Digits("Gas in gas units; default 30 Tgas, at most 300 Tgas")),
    data: Type.Optional(JsonObject("Fixed JSON arguments")),
    ...parameterFields,
  },
  "A NEAR function call",
);

const EvmCallInput = Body(
  {
    contract_id: Type.String({ minLength: 42, maxLength: 42, description: "The contract address" }),
    method_name: MethodName,
    method_type: Type.Optional(
      Type.String({ minLength: 1, maxLength: 32, description: "Defaults to the ABI's stateMutability" }),
    ),
    abi: Abi("The contract's JSON ABI (at least the called function)"),
    gas_limit: Type.Optional(Digits("Gas limit; estimated at send time when absent")),
    data: Type.Optional(ArgList("Fixed argument values: [{name, value}]")),
    ...parameterFields,
  },
  "An EVM contract call",
);

const WaxCallInput = Body(
  {
    contract_id: Type.String({ minLength: 1, maxLength: 12, description: "The contract's account" }),
    method_name: Type.String({ minLength: 1, maxLength: 12, description: "The action's name" }),
    abi: Abi("The contract's Antelope ABI as JSON text"),
    gas_limit: Type.Optional(Digits("Kept for the interface; WAX bills CPU/NET, not gas")),
    data: Type.Optional(ArgList("Fixed action fields: [{name, value}]")),
    ...parameterFields,
  },
  "A WAX action",
);

const SolanaCallInput = Body(
  {
    contract_id: Type.String({ minLength: 32, maxLength: 44, description: "The program id" }),
    method_name: MethodName,
    method_type: Type.Optional(
      Type.String({ minLength: 1, maxLength: 32, description: "Kept as given, for the interface" }),
    ),
    abi: Type.Optional(
      Nullable(
        Abi('JSON text: {"accounts": [{"address", "signer"?, "writable"?}]}, addresses may be {{name}}'),
      ),
    ),
    compute_units: Type.Optional(Digits("Compute-unit limit, at most 1,400,000")),
    data: Type.Optional(ArgList("Instruction data layout: [{name, type, value?}] encoded in order")),
    ...parameterFields,
  },
  "One Solana instruction",
);

export const CallDataInput = Body(
  {
    near: Type.Optional(NearCallInput),
    evm: Type.Optional(EvmCallInput),
    wax: Type.Optional(WaxCallInput),
    solana: Type.Optional(SolanaCallInput),
  },
  "Exactly one key: the chain of the trigger's wallet",
);

const Text = (description: string) => Type.String({ description });
const Args = (description: string) => Type.Array(Type.Record(Type.String(), Type.Unknown()), { description });
const common = {
  contract_id: Text("The contract: its address, account or program id"),
  method_name: Text("The method, function, action or instruction called"),
  data_input: Type.Record(Type.String(), Type.Unknown(), {
    description: "Argument values by name; strings may reference parameters as {{name}}",
  }),
  template: Nullable(Text("JSON text of all the arguments with {{name}} placeholders; null when unset")),
};
const chainCall = (chain: string) => ({
  description: `The ${chain} call; null unless the wallet's chain is ${chain}`,
});

export const CallData = Type.Object(
  {
    near: Nullable(
      Type.Object(
        {
          ...common,
          method_type: Text("`change` or `view`"),
          attached_deposit_amount: Text("Attached deposit in yoctoNEAR (integer text)"),
          gas_amount: Text("Gas in gas units (integer text)"),
          data: Type.Record(Type.String(), Type.Unknown(), { description: "Fixed JSON arguments" }),
        },
        chainCall("near"),
      ),
    ),
    evm: Nullable(
      Type.Object(
        {
          ...common,
          method_type: Text("The function's state mutability, e.g. `nonpayable`"),
          abi: Text("The contract's JSON ABI"),
          gas_limit: Nullable(Text("Gas limit; null when estimated at send time")),
          data: Args("Fixed argument values: [{name, value}]"),
        },
        chainCall("evm"),
      ),
    ),
    wax: Nullable(
      Type.Object(
        {
          ...common,
          abi: Text("The contract's Antelope ABI as JSON text"),
          gas_limit: Nullable(Text("Kept for the interface; WAX bills CPU/NET, not gas")),
          data: Args("Fixed action fields: [{name, value}]"),
        },
        chainCall("wax"),
      ),
    ),
    solana: Nullable(
      Type.Object(
        {
          ...common,
          method_type: Nullable(Text("Kept as given, for the interface")),
          abi: Nullable(Text("JSON text listing the instruction's accounts in order")),
          compute_units: Nullable(Text("Compute-unit limit (integer text); null for the default")),
          data: Args("Instruction data layout: [{name, type, value?}] encoded in order"),
        },
        chainCall("solana"),
      ),
    ),
  },
  { description: "Every chain key is present; only the wallet's chain is filled, the others are null" },
);
