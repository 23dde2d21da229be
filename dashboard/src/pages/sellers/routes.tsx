import type { RouteObject } from "react-router";

// Lazy: each page is its own chunk, so the first load of /dashboard stays small.
export const sellersRoutes: RouteObject[] = [
  { path: "sellers", lazy: async () => ({ Component: (await import("./SellersPage.tsx")).SellersPage }) },
];
