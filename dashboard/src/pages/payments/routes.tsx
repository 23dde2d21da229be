import type { RouteObject } from "react-router";

// Loaded when first visited, so the first load of the dashboard does not carry these pages.
export const paymentsRoutes: RouteObject[] = [
  {
    path: "payments",
    lazy: async () => ({ Component: (await import("./PaymentsPage.tsx")).PaymentsPage }),
  },
  {
    path: "payments/:paymentId",
    lazy: async () => ({ Component: (await import("./PaymentDetailPage.tsx")).PaymentDetailPage }),
  },
];
