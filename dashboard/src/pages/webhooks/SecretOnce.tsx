import { Alert, Button, Stack, Text } from "@mantine/core";
import { CopyField } from "../../components/CopyField.tsx";
import { TONES } from "../payments/tone.tsx";

/** A signing secret the API answers this once: copy it now, it is never shown again. */
export function SecretOnce({ secret, onDone }: { secret: string; onDone: () => void }) {
  return (
    <Alert color={TONES.warning.text} title="Copy the signing secret now">
      <Stack gap="xs">
        <Text size="sm">
          Your receiver verifies each delivery with it (Standard Webhooks). It is shown this once.
        </Text>
        <CopyField label="Signing secret" value={secret} />
        <Button variant="default" size="xs" onClick={onDone} w="fit-content">
          I have copied it
        </Button>
      </Stack>
    </Alert>
  );
}
