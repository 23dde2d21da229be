import type { RouteObject } from "react-router";

// Lazy: each page is its own chunk, so the first load of /dashboard stays small.
export const walletsRoutes: RouteObject[] = [
  { path: "wallets", lazy: async () => ({ Component: (await import("./WalletsPage.tsx")).WalletsPage }) },
];
