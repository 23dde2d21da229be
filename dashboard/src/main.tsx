import "@mantine/core/styles.css";
import "@mantine/notifications/styles.css";
import { MantineProvider } from "@mantine/core";
import { ModalsProvider } from "@mantine/modals";
import { Notifications } from "@mantine/notifications";
import { setNonce } from "get-nonce";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { RouterProvider } from "react-router";
import { ApiProvider } from "./api.tsx";
import { router } from "./routes.tsx";
import { cssVariablesResolver, theme } from "./theme.ts";

/**
 * The server puts a fresh nonce in this meta tag on every page load; Mantine gives it to the
 * `<style>` elements it adds, which the Content-Security-Policy allows only with that nonce.
 */
const styleNonce = document.querySelector<HTMLMetaElement>('meta[name="csp-nonce"]')?.content ?? "";
// The same nonce for the style Mantine's modals add to lock scrolling (react-remove-scroll).
setNonce(styleNonce);

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariablesResolver}
      defaultColorScheme="light"
      getStyleNonce={() => styleNonce}
    >
      <ApiProvider>
        <ModalsProvider>
          {/* Bottom right: at the top they covered the app switcher and the sign-out button. */}
          <Notifications position="bottom-right" />
          <RouterProvider router={router} />
        </ModalsProvider>
      </ApiProvider>
    </MantineProvider>
  </StrictMode>,
);
