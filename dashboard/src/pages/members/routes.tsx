import type { RouteObject } from "react-router";
import { MembersPage } from "./MembersPage.tsx";

export const membersRoutes: RouteObject[] = [{ path: "members", element: <MembersPage /> }];
