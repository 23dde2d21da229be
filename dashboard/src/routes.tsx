import { Anchor, Stack, Text, Title } from "@mantine/core";
import { lazy, type ReactNode, Suspense } from "react";
import { createBrowserRouter, Link, Navigate, Outlet, type RouteObject, useLocation } from "react-router";
import { useAppId, useSession } from "./api.tsx";
import { LiveEvents } from "./components/live-events.tsx";
import { LoadingSkeleton } from "./components/PageState.tsx";
import { RouteError } from "./components/RouteError.tsx";
import { apiKeysRoutes } from "./pages/api-keys/routes.tsx";
import { AppsPage } from "./pages/apps/AppsPage.tsx";
import { appsRoutes } from "./pages/apps/routes.tsx";
import { auctionsRoutes } from "./pages/auctions/routes.tsx";
import { SignInPage } from "./pages/auth/SignInPage.tsx";
import { SignUpPage } from "./pages/auth/SignUpPage.tsx";
import { balancesRoutes } from "./pages/balances/routes.tsx";
import { membersRoutes } from "./pages/members/routes.tsx";
import { paymentsRoutes } from "./pages/payments/routes.tsx";
import { pricesRoutes } from "./pages/prices/routes.tsx";
import { sellersRoutes } from "./pages/sellers/routes.tsx";
import { treesRoutes } from "./pages/trees/routes.tsx";
import { triggersRoutes } from "./pages/triggers/routes.tsx";
import { walletsRoutes } from "./pages/wallets/routes.tsx";
import { webhooksRoutes } from "./pages/webhooks/routes.tsx";
import { Shell } from "./shell/Shell.tsx";

/** The overview's charts are the heaviest code: fetched only when an app's overview opens. */
const OverviewPage = lazy(() => import("./pages/overview/OverviewPage.tsx"));
// Pages a person opens now and then: their code is fetched when they are opened.
const AccountPage = lazy(() => import("./pages/account/AccountPage.tsx"));
const AuditLogPage = lazy(() => import("./pages/audit/AuditLogPage.tsx"));
const ForgotPasswordPage = lazy(() => import("./pages/auth/ForgotPasswordPage.tsx"));

const later = (element: ReactNode) => <Suspense fallback={<LoadingSkeleton />}>{element}</Suspense>;

function RequireSession() {
  const { session } = useSession();
  const location = useLocation();
  if (!session) return <Navigate to="/sign-in" replace state={{ from: location.pathname }} />;
  return <Outlet />;
}

/** An app's pages: its shell, and its event stream keeping every page of it current. */
function AppLayout() {
  const appId = useAppId();
  return (
    <LiveEvents appId={appId}>
      <Shell appId={appId} />
    </LiveEvents>
  );
}

function NotFound() {
  return (
    <Stack p="xl" component="main">
      <Title order={1}>Page not found</Title>
      <Text>
        Nothing lives at this address.{" "}
        <Anchor component={Link} to="/">
          Back to your apps
        </Anchor>
      </Text>
    </Stack>
  );
}

/** Pages about one app, relative to `/apps/:appId`; each area adds its own list with one line. */
const appRoutes: RouteObject[] = [
  {
    index: true,
    element: (
      <Suspense fallback={<LoadingSkeleton />}>
        <OverviewPage />
      </Suspense>
    ),
  },
  ...appsRoutes,
  ...pricesRoutes,
  ...paymentsRoutes,
  ...balancesRoutes,
  ...webhooksRoutes,
  ...membersRoutes,
  ...apiKeysRoutes,
  ...walletsRoutes,
  ...triggersRoutes,
  ...sellersRoutes,
  ...auctionsRoutes,
  ...treesRoutes,
  { path: "audit-log", element: later(<AuditLogPage />) },
];

export const router = createBrowserRouter(
  [
    { path: "sign-in", element: <SignInPage />, errorElement: <RouteError /> },
    { path: "sign-up", element: <SignUpPage />, errorElement: <RouteError /> },
    { path: "forgot-password", element: later(<ForgotPasswordPage />), errorElement: <RouteError /> },
    {
      element: <RequireSession />,
      errorElement: <RouteError />,
      children: [
        {
          element: <Shell />,
          children: [
            {
              errorElement: <RouteError />,
              children: [
                { index: true, element: <AppsPage /> },
                { path: "account", element: later(<AccountPage />) },
              ],
            },
          ],
        },
        // A pathless route between the shell and the pages: a page that throws, or whose lazily
        // loaded code cannot be fetched, shows RouteError inside the shell, never the router's own.
        {
          path: "apps/:appId",
          element: <AppLayout />,
          children: [{ errorElement: <RouteError />, children: appRoutes }],
        },
      ],
    },
    { path: "*", element: <NotFound /> },
  ],
  { basename: "/dashboard" },
);
