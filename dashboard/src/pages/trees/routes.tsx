import type { RouteObject } from "react-router";

// Lazy: each page is its own chunk, so the first load of /dashboard stays small.
export const treesRoutes: RouteObject[] = [
  { path: "trees", lazy: async () => ({ Component: (await import("./TreesPage.tsx")).TreesPage }) },
];
