import { Button, Checkbox, Fieldset, Group, JsonInput, Select, Stack, Text, TextInput } from "@mantine/core";
import { type AddressCheck, newRow, PARAM_TYPES, type ParamRow, type ParamType } from "./descriptors.ts";

const TYPES = PARAM_TYPES.map((value) => ({ value, label: value }));
const ADDRESS_CHECKS = [
  { value: "none", label: "Any text" },
  { value: "ethereum", label: "An Ethereum address" },
  { value: "near", label: "A NEAR account" },
];

/**
 * The trigger's parameters, one fieldset each: what the shopper (or the app) fills in, and what
 * `{{name}}` placeholders in the call may use. Labels carry the parameter's number so every
 * field is named on its own.
 */
export function DescriptorEditor({
  rows,
  onChange,
}: {
  rows: ParamRow[];
  onChange: (rows: ParamRow[]) => void;
}) {
  const update = (index: number, change: Partial<ParamRow>) =>
    onChange(rows.map((row, i) => (i === index ? { ...row, ...change } : row)));
  return (
    <Stack gap="sm">
      {rows.length === 0 && (
        <Text size="sm" c="dimmed">
          No parameters: the call is the same for every payment.
        </Text>
      )}
      {rows.map((row, index) => {
        const n = index + 1;
        return (
          <Fieldset key={row.key} legend={`Parameter ${n}`} p="sm">
            <Stack gap="xs">
              <Group grow wrap="wrap" align="flex-start">
                <TextInput
                  label={`Parameter ${n} name`}
                  required
                  value={row.name}
                  onChange={(e) => update(index, { name: e.currentTarget.value })}
                  miw={140}
                />
                <Select
                  label={`Parameter ${n} type`}
                  data={TYPES}
                  value={row.type}
                  allowDeselect={false}
                  onChange={(value) => value && update(index, { type: value as ParamType })}
                  miw={140}
                />
              </Group>
              <TextInput
                label={`Parameter ${n} description (optional)`}
                value={row.desc}
                onChange={(e) => update(index, { desc: e.currentTarget.value })}
              />
              {row.type === "string" && (
                <Select
                  label={`Parameter ${n} format`}
                  data={ADDRESS_CHECKS}
                  value={row.address}
                  allowDeselect={false}
                  onChange={(value) => value && update(index, { address: value as AddressCheck })}
                />
              )}
              {(row.type === "object" || row.type === "array") && (
                <JsonInput
                  label={`Parameter ${n} ${row.type === "object" ? "fields" : "elements"} (JSON, optional)`}
                  description={
                    row.type === "object"
                      ? 'A list of {"<type>": descriptor}, e.g. [{"string": {"name": "note"}}]; empty: any object'
                      : 'One {"<type>": descriptor}, e.g. {"string": {"name": "tag"}}; empty: any array'
                  }
                  autosize
                  minRows={2}
                  value={row.nested}
                  onChange={(value) => update(index, { nested: value })}
                />
              )}
              <Group gap="lg">
                <Checkbox
                  label="Optional"
                  checked={row.optional}
                  onChange={(e) => update(index, { optional: e.currentTarget.checked })}
                  aria-label={`Parameter ${n} optional`}
                />
                <Checkbox
                  label="May be null"
                  checked={row.nullable}
                  onChange={(e) => update(index, { nullable: e.currentTarget.checked })}
                  aria-label={`Parameter ${n} may be null`}
                />
                <Button
                  variant="default"
                  size="compact-sm"
                  onClick={() => onChange(rows.filter((_, i) => i !== index))}
                >
                  Remove parameter {n}
                </Button>
              </Group>
            </Stack>
          </Fieldset>
        );
      })}
      <Button
        variant="light"
        onClick={() => onChange([...rows, newRow()])}
        style={{ alignSelf: "flex-start" }}
      >
        Add parameter
      </Button>
    </Stack>
  );
}
