import { Badge } from "@mantine/core";
import type { ReactNode } from "react";
import { designTokens } from "../../../../src/platform/pages/design-tokens.ts";

const { color } = designTokens;

/**
 * Status colours from the design tokens, text on its own pale surface: Mantine's light badges and
 * buttons (shade 6 on a 10% tint) fall below the contrast ratio the browser tests check.
 */
export const TONES = Object.freeze({
  success: { surface: color.successSurface, text: color.success },
  warning: { surface: color.warningSurface, text: color.warning },
  danger: { surface: color.dangerSurface, text: color.danger },
  info: { surface: color.surfaceAlt, text: color.primary },
  neutral: { surface: color.surfaceAlt, text: color.text },
});

export type Tone = keyof typeof TONES;

/** The colour of buttons that destroy or give money back (their modal's confirm button too). */
export const DANGER = color.danger;

export function ToneBadge({ tone, children }: { tone: Tone; children: ReactNode }) {
  return (
    <Badge variant="filled" color={TONES[tone].surface} c={TONES[tone].text} tt="none">
      {children}
    </Badge>
  );
}
