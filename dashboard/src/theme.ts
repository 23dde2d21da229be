import {
  Badge,
  type CSSVariablesResolver,
  createTheme,
  type MantineColorsTuple,
  Modal,
  Notification,
} from "@mantine/core";
import { designTokens } from "../../src/platform/pages/design-tokens.ts";

const { color, font, radius } = designTokens;

/** `#rrggbb` mixed with white (`weight` > 0) or black (`weight` < 0), as Mantine wants ten shades. */
function mix(hex: string, weight: number): string {
  const target = weight > 0 ? 255 : 0;
  const share = Math.abs(weight);
  const channels = [1, 3, 5].map((at) => {
    const value = Number.parseInt(hex.slice(at, at + 2), 16);
    return Math.round(value + (target - value) * share)
      .toString(16)
      .padStart(2, "0");
  });
  return `#${channels.join("")}`;
}

/**
 * Ten shades around one of the tokens' colours: shade 6 is the colour itself and shade 7 its hover,
 * so filled buttons match the hosted pages, and the light variants keep readable contrast.
 */
function shades(base: string, hover: string): MantineColorsTuple {
  return [
    mix(base, 0.92),
    mix(base, 0.82),
    mix(base, 0.66),
    mix(base, 0.5),
    mix(base, 0.32),
    mix(base, 0.16),
    base,
    hover,
    mix(hover, -0.2),
    mix(hover, -0.4),
  ];
}

export const theme = createTheme({
  primaryColor: "brand",
  primaryShade: 6,
  colors: {
    brand: shades(color.primary, color.primaryHover),
    red: shades(color.danger, mix(color.danger, -0.15)),
    green: shades(color.success, mix(color.success, -0.15)),
  },
  fontFamily: font.family,
  fontFamilyMonospace: font.mono,
  headings: { fontFamily: font.family },
  defaultRadius: "md",
  radius: { sm: radius.small, md: radius.medium, lg: radius.large },
  focusRing: "auto",
  components: {
    // Mantine's defaults leave close buttons unnamed and a notification's message too pale.
    Modal: Modal.extend({ defaultProps: { closeButtonProps: { "aria-label": "Close" } } }),
    // One case for every badge: Mantine's default upper-cases some and not others (ToneBadge).
    Badge: Badge.extend({ defaultProps: { tt: "none" } }),
    Notification: Notification.extend({
      defaultProps: { closeButtonProps: { "aria-label": "Close notification" } },
      styles: { description: { color: color.text } },
    }),
  },
});

/**
 * The tokens' text, muted and surface colours replace Mantine's defaults: its default dimmed grey
 * is too pale to read on white (and fails the contrast check the browser tests run).
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    "--mantine-color-text": color.text,
    "--mantine-color-dimmed": color.muted,
    "--mantine-color-body": color.surface,
    "--mantine-color-default-border": color.border,
    "--mantine-color-placeholder": color.muted,
    "--mantine-color-error": color.danger,
    "--mantine-color-anchor": color.primary,
  },
  dark: {},
});
