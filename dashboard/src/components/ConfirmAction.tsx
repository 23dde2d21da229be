import { Button, type ButtonProps, Modal, Stack, Text } from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { type ReactNode, useState } from "react";
import { DialogButtons } from "./FormDialog.tsx";
import { ErrorAlert } from "./PageState.tsx";

interface ConfirmActionProps extends Omit<ButtonProps, "children" | "onClick"> {
  /** The button's text (also the modal's confirm button unless `confirmLabel` says otherwise). */
  label: string;
  title: string;
  children: ReactNode;
  confirmLabel?: string;
  /**
   * The button that closes the dialog and does nothing: "Cancel" unless the action is itself a
   * cancel, where two buttons named "Cancel" would leave a person guessing which one acts.
   */
  dismissLabel?: string;
  /** The mutation; the modal stays open, showing the failure, if it rejects. */
  onConfirm: () => Promise<unknown>;
}

/** A button that asks first: a modal says what will happen, and acts only on a second click. */
export function ConfirmAction({
  label,
  title,
  children,
  confirmLabel,
  dismissLabel = "Cancel",
  onConfirm,
  color = "red",
  ...buttonProps
}: ConfirmActionProps) {
  const [opened, { open, close }] = useDisclosure(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await onConfirm();
      close();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button variant="light" color={color} {...buttonProps} onClick={open}>
        {label}
      </Button>
      <Modal opened={opened} onClose={close} title={title} centered>
        <Stack>
          <Text size="sm">{children}</Text>
          {error !== null && <ErrorAlert error={error} />}
          <DialogButtons
            dismissLabel={dismissLabel}
            onDismiss={close}
            busy={busy}
            label={confirmLabel ?? label}
            color={color}
            onConfirm={() => void confirm()}
          />
        </Stack>
      </Modal>
    </>
  );
}
