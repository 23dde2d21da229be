import type { RouteObject } from "react-router";

// Loaded when first visited, so the first load of the dashboard does not carry these pages.
export const pricesRoutes: RouteObject[] = [
  {
    path: "prices",
    lazy: async () => ({ Component: (await import("./PricesPage.tsx")).PricesPage }),
  },
  {
    path: "prices/:priceId",
    lazy: async () => ({ Component: (await import("./PriceDetailPage.tsx")).PriceDetailPage }),
  },
];
