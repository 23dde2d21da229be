import type { RouteObject } from "react-router";

// Lazy: each page is its own chunk, so the first load of /dashboard stays small.
export const auctionsRoutes: RouteObject[] = [
  { path: "auctions", lazy: async () => ({ Component: (await import("./AuctionsPage.tsx")).AuctionsPage }) },
  {
    path: "auctions/:auctionId",
    lazy: async () => ({ Component: (await import("./AuctionPage.tsx")).AuctionPage }),
  },
];
