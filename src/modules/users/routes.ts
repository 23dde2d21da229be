import type { Deps } from "../../deps.ts";
import { NoContent } from "../../platform/http/schemas.ts";
import type { Server } from "../../platform/http/server.ts";
import { presentProfile } from "./presenters.ts";
import { LoginBody, LoginResponse, SignupBody, SignupResponse, UserProfile } from "./schemas.ts";
import * as users from "./service.ts";

export async function userRoutes(app: Server, deps: Deps) {
  app.post(
    "/auth/signup",
    {
      config: { public: true },
      schema: {
        operationId: "signUp",
        tags: ["users"],
        summary: "Create a user account and a first session",
        body: SignupBody,
        response: { 201: SignupResponse },
      },
    },
    async (request, reply) => {
      const { user, token } = await users.signup(deps, request.body, request.ip);
      return reply.code(201).send({ user: presentProfile(user), token });
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
      const session = await users.login(deps, request.body.email, request.body.password, request.ip);
      return { token: session.token, expires_at: session.expiresAt.toISOString() };
    },
  );

  app.post(
    "/auth/logout",
    {
      schema: {
        operationId: "logOut",
        tags: ["users"],
        summary: "Revoke the presented session token",
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await users.logout(deps, request.actor);
      return reply.code(204).send(null);
    },
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
