import { Button, Select, type SelectProps } from "@mantine/core";
import { useState } from "react";

// The pieces every filter bar of the console shares (payments, movements, the audit log, a
// webhook's deliveries): choices that apply at once, typed fields kept as a draft until the form
// is sent, and the form's "apply" and "Clear filters" buttons. The filters themselves live in the
// address (url-filters.ts).

/**
 * A filter chosen from a list, applied as soon as it is picked; "" is the list's "any" entry, and
 * applies as no filter (`undefined`).
 */
export function FilterSelect({
  value,
  onPick,
  ...props
}: Omit<SelectProps, "value" | "onChange"> & {
  value: string | undefined;
  onPick(value: string | undefined): void;
}) {
  return (
    <Select
      value={value ?? ""}
      onChange={(picked) => onPick(picked || undefined)}
      allowDeselect={false}
      {...props}
    />
  );
}

/** Typed filters kept in the form until it is sent: the draft, and each text field's value and change. */
export function useDraft<Draft extends Record<string, string>>(initial: () => Draft) {
  const [draft, setDraft] = useState<Draft>(initial);
  const field = (name: keyof Draft) => ({
    value: draft[name],
    onChange: (event: { currentTarget: { value: string } }) =>
      setDraft({ ...draft, [name]: event.currentTarget.value }),
  });
  return { draft, setDraft, field };
}

/** The filter form's own buttons: apply what was typed, and (when any filter is on) clear them all. */
export function FilterButtons({
  label,
  variant = "light",
  active,
  onClear,
}: {
  label: string;
  variant?: "light" | "filled";
  active: boolean;
  onClear(): void;
}) {
  return (
    <>
      <Button type="submit" variant={variant}>
        {label}
      </Button>
      {active && (
        <Button variant="subtle" onClick={onClear}>
          Clear filters
        </Button>
      )}
    </>
  );
}
