import type { RouteObject } from "react-router";

// Loaded when first visited, so the first load of the dashboard does not carry these pages.
export const webhooksRoutes: RouteObject[] = [
  {
    path: "webhooks",
    lazy: async () => ({ Component: (await import("./WebhooksPage.tsx")).WebhooksPage }),
  },
  {
    path: "webhooks/:endpointId",
    lazy: async () => ({ Component: (await import("./EndpointDetailPage.tsx")).EndpointDetailPage }),
  },
];
