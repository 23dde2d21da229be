import type { RouteObject } from "react-router";

// Lazy: the page and its chart are fetched when opened, never with the console's first load.
export const balancesRoutes: RouteObject[] = [
  { path: "balances", lazy: async () => ({ Component: (await import("./BalancesPage.tsx")).default }) },
];
