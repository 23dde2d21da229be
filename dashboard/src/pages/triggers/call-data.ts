import type { Trigger } from "@payments-backend/sdk";
import type { Chain } from "../wallets/explorers.ts";

/** The builder's call fields, as text; which ones a chain uses is `CALL_FIELDS[chain]`. */
export interface CallFields {
  contract_id: string;
  method_name: string;
  method_type: string;
  abi: string;
  gas: string;
  deposit: string;
  compute_units: string;
  data: string;
  data_input: string;
  template: string;
}

export const EMPTY_CALL: CallFields = {
  contract_id: "",
  method_name: "",
  method_type: "",
  abi: "",
  gas: "",
  deposit: "",
  compute_units: "",
  data: "",
  data_input: "",
  template: "",
};

export type CallField = keyof CallFields;

export interface FieldSpec {
  label: string;
  description?: string;
  json?: boolean;
  required?: boolean;
}

const ARGS_HELP = 'Argument values by name; "{{name}}" inserts a parameter, "{{wallet}}" the wallet';
const TEMPLATE: FieldSpec = {
  label: "Template (JSON, optional)",
  description: "All arguments at once, as JSON text; replaces the arguments above when set",
  json: true,
};
/** Fields that are JSON text on the wire: checked here, sent as written. */
const SENT_AS_TEXT: CallField[] = ["abi", "template"];

/** Per chain, the fields it takes, in order, with their labels (docs/triggers.md). */
export const CALL_FIELDS: Record<Chain, Partial<Record<CallField, FieldSpec>>> = {
  evm: {
    contract_id: { label: "Contract address", required: true },
    method_name: { label: "Function name", required: true },
    abi: { label: "Contract ABI (JSON)", json: true, required: true },
    gas: { label: "Gas limit (optional)", description: "Estimated at send time when empty" },
    data_input: { label: "Arguments (JSON object)", description: ARGS_HELP, json: true },
    data: { label: "Fixed arguments (JSON list of {name, value}, optional)", json: true },
    template: TEMPLATE,
  },
  near: {
    contract_id: { label: "Contract account", required: true },
    method_name: { label: "Method name", required: true },
    method_type: { label: "Method type (change or view, optional)" },
    deposit: { label: "Attached deposit in yoctoNEAR (optional)" },
    gas: { label: "Gas (optional)", description: "Default 30 Tgas, at most 300 Tgas" },
    data_input: { label: "Arguments (JSON object)", description: ARGS_HELP, json: true },
    data: { label: "Fixed arguments (JSON object, optional)", json: true },
    template: TEMPLATE,
  },
  wax: {
    contract_id: { label: "Contract account", required: true },
    method_name: { label: "Action name", required: true },
    abi: { label: "Contract ABI (JSON)", json: true, required: true },
    data_input: { label: "Action fields (JSON object)", description: ARGS_HELP, json: true },
    data: { label: "Fixed action fields (JSON list of {name, value}, optional)", json: true },
    template: TEMPLATE,
  },
  solana: {
    contract_id: { label: "Program id", required: true },
    method_name: { label: "Instruction name", required: true },
    abi: {
      label: "Accounts (JSON, optional)",
      description: '{"accounts": [{"address", "signer"?, "writable"?}]}; addresses may be {{name}}',
      json: true,
    },
    compute_units: { label: "Compute units (optional)" },
    data: { label: "Instruction data layout (JSON list of {name, type, value?})", json: true },
    data_input: { label: "Data values (JSON object)", description: ARGS_HELP, json: true },
    template: TEMPLATE,
  },
};

export class CallJsonError extends Error {
  readonly field: CallField;
  constructor(field: CallField, label: string) {
    super(`${label} is not valid JSON`);
    this.field = field;
  }
}

/** The `call_data` body for the wallet's chain: only filled fields, JSON fields parsed. */
export function toCallData(chain: Chain, fields: CallFields) {
  const specs = CALL_FIELDS[chain];
  const value = (field: CallField) => {
    const text = fields[field].trim();
    if (!specs[field] || text === "") return undefined;
    if (!specs[field].json) return text;
    try {
      const parsed = JSON.parse(text);
      return SENT_AS_TEXT.includes(field) ? text : parsed;
    } catch {
      throw new CallJsonError(field, specs[field].label);
    }
  };
  const common = {
    contract_id: value("contract_id"),
    method_name: value("method_name"),
    data: value("data"),
    data_input: value("data_input"),
    template: value("template"),
  };
  const own: Record<string, unknown> =
    chain === "evm"
      ? { ...common, abi: value("abi"), gas_limit: value("gas") }
      : chain === "near"
        ? {
            ...common,
            method_type: value("method_type"),
            attached_deposit_amount: value("deposit"),
            gas_amount: value("gas"),
          }
        : chain === "wax"
          ? { ...common, abi: value("abi") }
          : { ...common, abi: value("abi"), compute_units: value("compute_units") };
  for (const key of Object.keys(own)) if (own[key] === undefined) delete own[key];
  return { [chain]: own };
}

const json = (value: unknown) =>
  value === null || value === undefined || (typeof value === "object" && Object.keys(value).length === 0)
    ? ""
    : JSON.stringify(value, null, 2);

/** A saved trigger's call back into the builder's fields. */
export function fromCallData(trigger: Trigger): CallFields {
  const data = trigger.call_data;
  const fields = { ...EMPTY_CALL };
  const own = data.evm ?? data.near ?? data.wax ?? data.solana;
  if (!own) return fields;
  fields.contract_id = own.contract_id;
  fields.method_name = own.method_name;
  fields.data = json(own.data);
  fields.data_input = json(own.data_input);
  fields.template = own.template ?? "";
  if (data.evm) {
    fields.abi = data.evm.abi;
    fields.gas = data.evm.gas_limit ?? "";
  }
  if (data.near) {
    fields.method_type = data.near.method_type;
    fields.deposit = data.near.attached_deposit_amount;
    fields.gas = data.near.gas_amount;
  }
  if (data.wax) fields.abi = data.wax.abi;
  if (data.solana) {
    fields.abi = data.solana.abi ?? "";
    fields.compute_units = data.solana.compute_units ?? "";
  }
  return fields;
}
