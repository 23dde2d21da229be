import { Type } from "typebox";
import { Body, Nullable, nameSchemas, Timestamp } from "../../platform/http/schemas.ts";
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

export const Trigger = Type.Object({
  id: Type.String(),
  name: Type.String(),
  custom_address_enabled: Type.Boolean(),
  custom_address: Nullable(Type.String()),
  call_data: CallData,
  app: App,
  wallet: Wallet,
  params_data: ParamsData,
  params_data_input: ParamsInput,
  params_data_example: Type.String({ description: "JSON text of a valid params_data_input" }),
  created_at: Timestamp,
  updated_at: Timestamp,
});

const Name = Type.String({ minLength: 1, maxLength: 200 });
const CustomAddress = Nullable(Type.String({ minLength: 1, maxLength: 128 }));
const Example = Type.String({ maxLength: 20_000 });

export const CreateTriggerBody = Body({
  name: Name,
  wallet_id: Type.String({ minLength: 1, maxLength: 64, description: "A wallet of the same app" }),
  call_data: CallDataInput,
  params_data: Type.Optional(ParamsData),
  params_data_input: Type.Optional(ParamsInput),
  params_data_example: Type.Optional(Example),
  custom_address_enabled: Type.Optional(Type.Boolean()),
  custom_address: Type.Optional(CustomAddress),
});

export const UpdateTriggerBody = Body({
  name: Type.Optional(Name),
  wallet_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  call_data: Type.Optional(CallDataInput),
  params_data: Type.Optional(ParamsData),
  params_data_input: Type.Optional(ParamsInput),
  params_data_example: Type.Optional(Example),
  custom_address_enabled: Type.Optional(Type.Boolean()),
  custom_address: Type.Optional(CustomAddress),
});

export const RenderBody = Body({ params_data_input: Type.Optional(ParamsInput) });

const Unknown = Type.Unknown();
export const RenderedCall = Type.Object({
  chain: Type.String(),
  evm: Type.Optional(
    Type.Object({
      from: Type.String(),
      to: Type.String(),
      data: Type.String({ description: "ABI-encoded calldata, 0x hex" }),
      value: Type.String(),
      gas_limit: Nullable(Type.String()),
      function_name: Type.String(),
      args: Type.Array(Unknown),
    }),
  ),
  near: Type.Optional(
    Type.Object({
      signer_id: Type.String(),
      receiver_id: Type.String(),
      method_name: Type.String(),
      method_type: Type.String(),
      args: Type.Record(Type.String(), Unknown),
      args_base64: Type.String(),
      gas: Type.String(),
      deposit: Type.String({ description: "yoctoNEAR" }),
    }),
  ),
  wax: Type.Optional(
    Type.Object({
      account: Type.String(),
      name: Type.String(),
      authorization: Type.Array(Type.Object({ actor: Type.String(), permission: Type.String() })),
      data: Type.String({ description: "Action data serialized with the ABI, hex" }),
      args: Type.Record(Type.String(), Unknown),
    }),
  ),
  solana: Type.Optional(
    Type.Object({
      fee_payer: Type.String(),
      program_id: Type.String(),
      accounts: Type.Array(
        Type.Object({ address: Type.String(), is_signer: Type.Boolean(), is_writable: Type.Boolean() }),
      ),
      data_base64: Type.String(),
      data_hex: Type.String(),
      compute_units: Nullable(Type.String()),
    }),
  ),
});

export const TriggerParams = Type.Object({
  app_id: Type.String({ maxLength: 64 }),
  trigger_id: Type.String({ maxLength: 64 }),
});

// Named in the OpenAPI document (components.schemas), referenced wherever they appear.
nameSchemas({ Trigger, RenderedCall });
