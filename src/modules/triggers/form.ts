import { eq } from "drizzle-orm";
import type { Executor } from "../../platform/db/index.ts";
import { escapeHtml, jsonForScript, serveScript } from "../../platform/http/html.ts";
import type { Server } from "../../platform/http/server.ts";
import { TRIGGER_FORM_SCRIPT } from "./form-script.ts";
import { exampleInput, PARAM_TYPES, type Param, parseParams } from "./params.ts";
import { triggers } from "./tables.ts";

/**
 * The fields a shopper fills for a trigger's parameters, wherever they pay (the hosted checkout,
 * the auction page): one labelled field per descriptor, typed, with the descriptor's `desc` as
 * help. The page loads `TRIGGER_FORM_URL` (with its CSP nonce), whose `TriggerForm` checks the
 * fields in the browser and reads them as `params_data_input`; the server checks them again
 * when the payment or bid is made (`checkParamsInput`), and `TriggerForm.showServerErrors` puts
 * its answer next to the same fields.
 */
export const TRIGGER_FORM_URL = "/assets/trigger-form.js";

/** The parameters a page asks for when paying through `triggerId`; none without a trigger. */
export async function triggerParams(db: Executor, triggerId: string | null): Promise<Param[]> {
  if (!triggerId) return [];
  const [trigger] = await db
    .select({ paramsData: triggers.paramsData })
    .from(triggers)
    .where(eq(triggers.id, triggerId));
  // The descriptors were checked when the trigger was saved.
  return trigger ? parseParams(trigger.paramsData, "/params_data") : [];
}

/** What the browser script needs of a descriptor: the same checks as the server's, nested. */
export interface FieldSpec {
  name: string;
  type: Param["type"];
  label: string;
  optional: boolean;
  nullable: boolean;
  address: "ethereum" | "near" | null;
  fields?: FieldSpec[];
  element?: FieldSpec;
}

/** `order_id` reads as "Order id". */
const labelOf = (name: string) => {
  const words = name.replace(/_+/g, " ").trim() || name;
  return words.charAt(0).toUpperCase() + words.slice(1);
};

export function specOf(param: Param): FieldSpec {
  return {
    name: param.name,
    type: param.type,
    label: labelOf(param.name),
    optional: param.optional,
    nullable: param.nullable,
    address: param.isEthereumAddress ? "ethereum" : param.isNearAddress ? "near" : null,
    ...(param.fields ? { fields: param.fields.map(specOf) } : {}),
    ...(param.element ? { element: specOf(param.element) } : {}),
  };
}

const fieldId = (name: string) => `param-${name}`;

/** The plain-words hint under a field: what to type there. */
function hintOf(param: Param): string {
  if (param.isEthereumAddress) return "An Ethereum address: 0x followed by 40 hexadecimal characters.";
  if (param.isNearAddress) return "A NEAR account, such as alice.near.";
  const example = JSON.stringify(exampleInput([param])[param.name]);
  switch (param.type) {
    case "number":
      return "A number.";
    case "string":
      return "";
    case "boolean":
      return "";
    case "object":
      return param.fields ? `JSON, such as ${example}` : "A JSON object, such as {}.";
    case "array":
      return param.element ? `A JSON list, such as ${example}` : "A JSON list, such as [].";
  }
}

function control(param: Param, id: string, described: string): string {
  const common = `id="${id}" name="${escapeHtml(param.name)}" aria-describedby="${described}"`;
  switch (param.type) {
    case "number":
      return `<input ${common} inputmode="decimal" autocomplete="off">`;
    case "string": {
      const placeholder = param.isEthereumAddress ? "0x…" : param.isNearAddress ? "alice.near" : "";
      const address = param.isEthereumAddress || param.isNearAddress;
      return `<input ${common} autocomplete="off"${address ? ' spellcheck="false" autocapitalize="off"' : ""}${placeholder ? ` placeholder="${placeholder}"` : ""}>`;
    }
    case "boolean":
      return `<select ${common}><option value="">${param.optional ? "Leave out" : "Choose…"}</option><option value="true">Yes</option><option value="false">No</option></select>`;
    case "object":
    case "array":
      return `<textarea ${common} rows="3" spellcheck="false" autocomplete="off"></textarea>`;
  }
}

function field(param: Param): string {
  const id = fieldId(param.name);
  const desc = (param.desc ?? "").trim();
  const help = [desc && !/[.!?:]$/.test(desc) ? `${desc}.` : desc, hintOf(param)].filter(Boolean).join(" ");
  const described = `${id}-help ${id}-error`;
  return `<div class="param" data-param="${escapeHtml(param.name)}">
    <label for="${id}">${escapeHtml(labelOf(param.name))}${param.optional ? ' <span class="optional">(optional)</span>' : ""}</label>
    <small class="help" id="${id}-help">${escapeHtml(help)}</small>
    ${control(param, id, described)}
    ${param.nullable ? `<label class="none"><input type="checkbox" id="${id}-none"> No value</label>` : ""}
    <p class="field-error" id="${id}-error" hidden></p>
  </div>`;
}

/**
 * The parameters' fields in a fieldset, with their specs for the script; empty when the trigger
 * takes no parameters. Names are letters, digits and `_` (checked when the trigger is saved), so
 * they make safe element ids.
 */
export function paramFields(declared: Param[], legend = "Details"): string {
  if (declared.length === 0) return "";
  // The database keeps an object's keys in its own order, so types come in the interface's order
  // (number, string, boolean, object, array), each type's list in its written order.
  const params = declared.toSorted((a, b) => PARAM_TYPES.indexOf(a.type) - PARAM_TYPES.indexOf(b.type));
  return `<fieldset id="trigger-params" class="params"><legend>${escapeHtml(legend)}</legend>
  ${params.map(field).join("\n  ")}
  <script type="application/json" id="trigger-params-spec">${jsonForScript(params.map(specOf))}</script>
</fieldset>`;
}

/**
 * What the fields add to the pages' shared stylesheet (src/platform/pages/style.ts, which styles
 * labels, controls, `.help` and `.field-error`); pages put it into their own nonce'd style block.
 */
export const PARAM_FIELDS_STYLE = `
fieldset.params{margin-top:var(--pb-space-lg)}.param{margin-top:var(--pb-space-md)}
.param>label{margin-top:0}.param .optional{color:var(--pb-color-muted);font-weight:400}
.param label.none{display:flex;gap:var(--pb-space-sm);align-items:center;margin:var(--pb-space-xs) 0 0;font-weight:400}
`;

/** Serves the browser half (`TriggerForm`) for every page that shows these fields. */
export function triggerFormAssetRoute(app: Server) {
  serveScript(app, TRIGGER_FORM_URL, TRIGGER_FORM_SCRIPT);
}
