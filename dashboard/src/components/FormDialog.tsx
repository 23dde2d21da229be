import { Button, type ButtonProps, Group, Modal, Stack } from "@mantine/core";
import type { ReactNode } from "react";
import { ErrorAlert } from "./PageState.tsx";

/**
 * A dialog's two buttons, at its foot: the way out (left, plain) and the action (right). They
 * always name different things ("Keep payment" beside "Cancel payment"), never two "Cancel"s.
 */
export function DialogButtons({
  dismissLabel = "Cancel",
  onDismiss,
  busy,
  label,
  color,
  disabled,
  onConfirm,
}: {
  dismissLabel?: string;
  onDismiss(): void;
  busy: boolean;
  /** The action's text. */
  label: ReactNode;
  color?: ButtonProps["color"];
  disabled?: boolean;
  /** The action; without it the action button submits the form it is in. */
  onConfirm?: () => void;
}) {
  return (
    <Group justify="flex-end">
      <Button variant="default" onClick={onDismiss} disabled={busy}>
        {dismissLabel}
      </Button>
      <Button
        type={onConfirm ? "button" : "submit"}
        color={color}
        loading={busy}
        disabled={disabled}
        onClick={onConfirm}
      >
        {label}
      </Button>
    </Group>
  );
}

export interface DialogFormProps {
  /** Called on submit (Enter in a field, or the action button), the browser's own submit prevented. */
  onSubmit(): void;
  onDismiss(): void;
  /** The action under way: its button spins, the way out waits. */
  busy: boolean;
  /** The failure to say above the fields (a field's own error is better shown under it). */
  error?: unknown;
  label: ReactNode;
  dismissLabel?: string;
  color?: ButtonProps["color"];
  disabled?: boolean;
  children: ReactNode;
}

/** A dialog's form: the failure if any, the fields, then `DialogButtons`. */
export function DialogForm({ onSubmit, onDismiss, busy, error, children, ...buttons }: DialogFormProps) {
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      <Stack>
        {error !== null && error !== undefined && <ErrorAlert error={error} />}
        {children}
        <DialogButtons onDismiss={onDismiss} busy={busy} {...buttons} />
      </Stack>
    </form>
  );
}

/** A centred dialog holding one `DialogForm`: the create and edit dialogs of every page. */
export function FormDialog({ opened, title, ...form }: DialogFormProps & { opened: boolean; title: string }) {
  return (
    <Modal opened={opened} onClose={form.onDismiss} title={title} centered>
      <DialogForm {...form} />
    </Modal>
  );
}
