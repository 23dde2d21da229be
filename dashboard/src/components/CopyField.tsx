import { ActionIcon, CopyButton, TextInput, Tooltip } from "@mantine/core";

interface CopyFieldProps {
  label: string;
  value: string;
  description?: string;
}

/** A read-only value with a copy button beside it (API keys, links, ids). */
export function CopyField({ label, value, description }: CopyFieldProps) {
  return (
    <TextInput
      label={label}
      description={description}
      value={value}
      readOnly
      styles={{ input: { fontFamily: "var(--mantine-font-family-monospace)" } }}
      onFocus={(event) => event.currentTarget.select()}
      rightSection={
        <CopyButton value={value} timeout={2000}>
          {({ copied, copy }) => (
            <Tooltip label={copied ? "Copied" : "Copy"} withArrow>
              <ActionIcon
                variant="subtle"
                onClick={copy}
                aria-label={copied ? `${label} copied` : `Copy ${label}`}
              >
                {copied ? "✓" : "⧉"}
              </ActionIcon>
            </Tooltip>
          )}
        </CopyButton>
      }
    />
  );
}
