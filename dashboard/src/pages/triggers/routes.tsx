import type { RouteObject } from "react-router";

// Lazy: each page is its own chunk, so the first load of /dashboard stays small.
export const triggersRoutes: RouteObject[] = [
  { path: "triggers", lazy: async () => ({ Component: (await import("./TriggersPage.tsx")).TriggersPage }) },
  {
    path: "triggers/new",
    lazy: async () => ({ Component: (await import("./NewTriggerPage.tsx")).NewTriggerPage }),
  },
  {
    path: "triggers/:triggerId",
    lazy: async () => ({ Component: (await import("./TriggerPage.tsx")).TriggerPage }),
  },
];
