import type { RouteObject } from "react-router";
import { ApiKeysPage } from "./ApiKeysPage.tsx";

export const apiKeysRoutes: RouteObject[] = [{ path: "api-keys", element: <ApiKeysPage /> }];
