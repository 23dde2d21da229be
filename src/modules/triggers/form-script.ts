/**
 * The browser half of the parameter fields (`form.ts`), served as one script for every page that
 * shows them. It defines `window.TriggerForm`:
 *
 * - `read()` checks every field as the server will (type, `optional`, `nullable`, address checks,
 *   nested objects and lists typed as JSON), shows each problem in plain words next to its field,
 *   and answers `{ok, values, first}`: `values` is the `params_data_input` to send.
 * - `showServerErrors(errors, prefix)` puts a problem document's `errors` whose path is under
 *   `prefix` (e.g. `/body/trigger_data_input/params_data_input`) next to their fields, and answers
 *   the errors it could not place.
 *
 * Written with textContent only, so nothing typed or answered is parsed as HTML. `String.raw`
 * keeps the regular expressions' backslashes as written; the script has no `${`.
 */
export const TRIGGER_FORM_SCRIPT = String.raw`(() => {
"use strict";
const EVM = /^0x[0-9a-fA-F]{40}$/;
// NEAR's account-id rules, as the server checks them (platform/chains/accounts.ts).
const NEAR = /^(([a-z\d]+[-_])*[a-z\d]+\.)*([a-z\d]+[-_])*[a-z\d]+$/;
const NUMBER = /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
const $ = (id) => document.getElementById(id);
const fieldId = (name) => "param-" + name;
const block = $("trigger-params-spec");
const specs = block ? JSON.parse(block.textContent) : [];
const isPlain = (v) => typeof v === "object" && v !== null && !Array.isArray(v);
const sentence = (text) => {
  const t = text.trim();
  return t ? t.charAt(0).toUpperCase() + t.slice(1) + (/[.!?]$/.test(t) ? "" : ".") : t;
};
// Where in a JSON value a problem is: "tags" › item 2.
const placeOf = (where) => (where.length ? where.join(" › ") + ": " : "");
const quoted = (name) => JSON.stringify(String(name));

function addressProblem(spec, text) {
  if (spec.address === "ethereum" && !EVM.test(text)) {
    return "enter an Ethereum address: 0x followed by 40 hexadecimal characters";
  }
  if (spec.address === "near" && !(text.length >= 2 && text.length <= 64 && NEAR.test(text))) {
    return "enter a NEAR account, such as alice.near";
  }
  return null;
}

// The server's rules (triggers/params.ts) for a value typed as JSON, nested fields and items too.
function check(spec, value, where, problems) {
  const say = (text) => problems.push(placeOf(where) + text);
  if (value === null) {
    if (!spec.nullable) say("cannot be null");
    return;
  }
  switch (spec.type) {
    case "number":
      if (typeof value !== "number" || !Number.isFinite(value)) say("must be a number");
      return;
    case "boolean":
      if (typeof value !== "boolean") say("must be true or false");
      return;
    case "string": {
      if (typeof value !== "string") return say("must be text in double quotes");
      const problem = addressProblem(spec, value);
      if (problem) say(problem);
      return;
    }
    case "array":
      if (!Array.isArray(value)) say("must be a list, such as []");
      else if (spec.element) value.forEach((item, i) => check(spec.element, item, where.concat("item " + (i + 1)), problems));
      return;
    case "object":
      if (!isPlain(value)) return say("must be an object, such as {}");
      if (!spec.fields) return;
      for (const key of Object.keys(value)) {
        if (!spec.fields.some((f) => f.name === key)) problems.push(placeOf(where.concat(quoted(key))) + "is not asked for");
      }
      for (const f of spec.fields) {
        if (value[f.name] === undefined) {
          if (!f.optional) problems.push(placeOf(where.concat(quoted(f.name))) + "is missing");
        } else check(f, value[f.name], where.concat(quoted(f.name)), problems);
      }
  }
}

function readField(spec) {
  const input = $(fieldId(spec.name));
  const none = $(fieldId(spec.name) + "-none");
  if (none && none.checked) return { value: null };
  const text = input.value.trim();
  if (text === "") {
    if (spec.optional) return { omit: true };
    return { problem: spec.nullable ? "Please fill this in, or tick No value" : "Please fill this in" };
  }
  switch (spec.type) {
    case "number":
      return NUMBER.test(text) && Number.isFinite(Number(text)) ? { value: Number(text) } : { problem: "Enter a number, such as 3 or 2.5" };
    case "string": {
      const problem = addressProblem(spec, text);
      return problem ? { problem } : { value: text };
    }
    case "boolean":
      return { value: text === "true" };
    default: {
      let value;
      try {
        value = JSON.parse(text);
      } catch {
        return { problem: spec.type === "array" ? "Write a JSON list, such as [1, 2]" : "Write a JSON object, such as {\"key\": \"value\"}" };
      }
      const problems = [];
      check(spec, value, [], problems);
      return problems.length ? { problem: problems.slice(0, 3).join("; ") } : { value };
    }
  }
}

function showProblem(name, message) {
  const input = $(fieldId(name));
  const slot = $(fieldId(name) + "-error");
  if (!input || !slot) return false;
  slot.textContent = sentence(message);
  slot.hidden = false;
  input.setAttribute("aria-invalid", "true");
  return true;
}

function clearOne(name) {
  const input = $(fieldId(name));
  const slot = $(fieldId(name) + "-error");
  if (slot) { slot.textContent = ""; slot.hidden = true; }
  if (input) input.removeAttribute("aria-invalid");
}

function clear() {
  for (const spec of specs) clearOne(spec.name);
}

function read() {
  clear();
  const values = {};
  let first = null;
  for (const spec of specs) {
    const result = readField(spec);
    if (result.problem) {
      showProblem(spec.name, result.problem);
      first = first || $(fieldId(spec.name));
    } else if (!result.omit) values[spec.name] = result.value;
  }
  return { ok: first === null, values, first };
}

// The server's messages (params.ts, the chain encoders) in the words a shopper reads.
const SERVER_WORDS = [
  [/^is required$/, "please fill this in"],
  [/^must not be null$/, "please fill this in"],
  [/^must be a number$/, "enter a number"],
  [/^must be an Ethereum address$/, "enter a valid Ethereum address: 0x followed by 40 hexadecimal characters (with mixed case, its checksum must match)"],
  [/^must be an EVM address$/, "enter a valid Ethereum address: 0x followed by 40 hexadecimal characters"],
  [/^must be a NEAR account id$/, "enter a NEAR account, such as alice.near"],
  [/^must be an integer/, "enter a whole number"],
  [/out of range/, "this number is too large or too small"],
  [/^is not a declared parameter$/, "is not asked for"],
];
const plainWords = (message) => {
  for (const [pattern, words] of SERVER_WORDS) if (pattern.test(message)) return words;
  return message;
};

function showServerErrors(errors, prefix) {
  const rest = [];
  for (const error of errors || []) {
    const path = typeof error.path === "string" ? error.path : "";
    if (!path.startsWith(prefix + "/")) { rest.push(error); continue; }
    const [name, ...inner] = path.slice(prefix.length + 1).split("/");
    const where = inner.map((p) => (/^\d+$/.test(p) ? "item " + (Number(p) + 1) : quoted(p)));
    if (!showProblem(name, placeOf(where) + plainWords(String(error.message || "")))) rest.push(error);
  }
  return rest;
}

for (const spec of specs) {
  const input = $(fieldId(spec.name));
  const none = $(fieldId(spec.name) + "-none");
  input.addEventListener("input", () => clearOne(spec.name));
  input.addEventListener("change", () => clearOne(spec.name));
  if (none) none.addEventListener("change", () => { input.disabled = none.checked; clearOne(spec.name); });
}

window.TriggerForm = { specs, has: specs.length > 0, read, clear, showProblem, showServerErrors, plainWords, sentence };
})();
`;
