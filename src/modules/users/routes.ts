import type { FastifyRequest } from "fastify";
import type { Deps } from "../../deps.ts";
import * as route from "../../platform/http/routes.ts";
import type { Server } from "../../platform/http/server.ts";
import { presentProfile } from "./presenters.ts";
import { LoginBody, LoginResponse, SignupBody, SignupResponse, UserProfile } from "./schemas.ts";
import * as users from "./service.ts";

/** Where a request comes from, as a session records it. */
export function clientOf(request: FastifyRequest): users.Client {
  const agent = request.headers["user-agent"];
  return { ip: request.ip, userAgent: typeof agent === "string" ? agent : undefined };
}

export async function userRoutes(app: Server, deps: Deps) {
  route.created(
    app,
    "/auth/signup",
    {
      config: { public: true },
      operationId: "signUp",
      tags: ["users"],
      summary: "Create a user account and a first session",
      body: SignupBody,
      resource: SignupResponse,
    },
    async (request) => {
      const { user, token } = await users.signup(deps, request.body, clientOf(request));
      return { user: presentProfile(user), token };
    },
  );

  app.post(
    "/auth/login",
    {
      config: { public: true },
      schema: {
        operationId: "logIn",
        tags: ["users"],
        summary: "Exchange email and password for a session token",
        body: LoginBody,
        response: { 200: LoginResponse },
      },
    },
    async (request) => {
      const session = await users.login(deps, request.body.email, request.body.password, clientOf(request));
      return { token: session.token, expires_at: session.expiresAt.toISOString() };
    },
  );

  route.noContent(
    app,
    "/auth/logout",
    { method: "POST", operationId: "logOut", tags: ["users"], summary: "Revoke the presented session token" },
    (request) => users.logout(deps, request.actor),
  );

  app.get(
    "/users/me",
    {
      schema: {
        operationId: "getMe",
        tags: ["users"],
        summary: "The caller's own profile",
        response: { 200: UserProfile },
      },
    },
    async (request) => presentProfile(await users.getProfile(deps, request.actor)),
  );
}
