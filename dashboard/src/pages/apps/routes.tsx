import type { RouteObject } from "react-router";
import { AppSettingsPage } from "./AppSettingsPage.tsx";

export const appsRoutes: RouteObject[] = [{ path: "settings", element: <AppSettingsPage /> }];
