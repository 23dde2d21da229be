import { Type } from "typebox";
import type { Deps } from "../../deps.ts";
import * as route from "../../platform/http/routes.ts";
import type { Server } from "../../platform/http/server.ts";
import { newNonce, sendPage } from "../../platform/pages/html.ts";
import * as account from "./account.ts";
import {
  ChangePasswordBody,
  PasswordResetBody,
  PasswordResetConfirmBody,
  Session,
  SessionParams,
  TokenParams,
  UpdateProfileBody,
  VerifyEmailBody,
} from "./account-schemas.ts";
import { accountTokenIsLive } from "./account-tokens.ts";
import { linkGonePage, passwordResetPage, verifyEmailPage } from "./pages.ts";
import { presentProfile } from "./presenters.ts";
import { UserProfile } from "./schemas.ts";
import { endSession, listSessions } from "./sessions.ts";

const tags = ["users"];
const Accepted = Type.Null({ description: "Accepted: a mail goes out if there is someone to send it to" });

/** Password reset and change, email verification, the profile's changes and the session list. */
export async function accountRoutes(app: Server, deps: Deps) {
  app.post(
    "/auth/password-reset",
    {
      config: { public: true },
      schema: {
        operationId: "requestPasswordReset",
        tags,
        summary: "Mail a password reset link (valid one hour) if an account has this address; always 202",
        body: PasswordResetBody,
        response: { 202: Accepted },
      },
    },
    async (request, reply) => {
      await account.requestPasswordReset(deps, request.body.email, request.ip);
      // No body: a 202 here documents none (Accepted is the empty answer).
      return reply.code(202).send(undefined as unknown as null);
    },
  );

  route.noContent(
    app,
    "/auth/password-reset/confirm",
    {
      method: "POST",
      config: { public: true },
      operationId: "confirmPasswordReset",
      tags,
      summary: "Set a new password with a reset link's token; every session of the account ends",
      body: PasswordResetConfirmBody,
    },
    (request) => account.confirmPasswordReset(deps, request.body.token, request.body.password, request.ip),
  );

  route.noContent(
    app,
    "/users/me/password",
    {
      method: "POST",
      operationId: "changePassword",
      tags,
      summary: "Change the caller's password; every other session of the account ends",
      body: ChangePasswordBody,
    },
    (request) =>
      account.changePassword(deps, request.actor, request.body.current_password, request.body.new_password),
  );

  route.noContent(
    app,
    "/auth/verify-email",
    {
      method: "POST",
      config: { public: true },
      operationId: "verifyEmail",
      tags,
      summary: "Prove the account's address with the token its verification mail carried",
      body: VerifyEmailBody,
    },
    (request) => account.verifyEmail(deps, request.body.token),
  );

  app.post(
    "/auth/verify-email/resend",
    {
      schema: {
        operationId: "resendVerificationEmail",
        tags,
        summary: "Mail the caller's verification link again (409 once verified)",
        response: { 202: Accepted },
      },
    },
    async (request, reply) => {
      await account.resendVerification(deps, request.actor);
      // No body: a 202 here documents none (Accepted is the empty answer).
      return reply.code(202).send(undefined as unknown as null);
    },
  );

  profileRoutes(app, deps);
}

/** The signed-in user's profile and sessions, and the pages the account mails link to. */
function profileRoutes(app: Server, deps: Deps) {
  app.patch(
    "/users/me",
    {
      schema: {
        operationId: "updateMe",
        tags,
        summary: "Change the caller's profile; a new email needs `current_password` and is verified again",
        body: UpdateProfileBody,
        response: { 200: UserProfile },
      },
    },
    async (request) => presentProfile(await account.updateProfile(deps, request.actor, request.body)),
  );

  route.list(
    app,
    "/users/me/sessions",
    {
      operationId: "listSessions",
      tags,
      summary: "The caller's live sessions: created, last used, address, user agent",
      item: Session,
      answer: "Sessions, newest first",
    },
    (request, page) => listSessions(deps, request.actor, page),
  );

  route.noContent(
    app,
    "/users/me/sessions/:session_id",
    {
      operationId: "endSession",
      tags,
      summary: "End one of the caller's sessions at once",
      params: SessionParams,
    },
    (request) => endSession(deps, request.actor, request.params.session_id),
  );

  // The hosted pages the mails link to. The token in the URL is the only credential: these log
  // only warnings and errors, which carry no URL.
  const page = (url: string, purpose: "password_reset" | "email_verification") =>
    app.get(
      url,
      {
        config: { public: true, htmlErrors: true },
        logLevel: "warn",
        schema: {
          operationId: purpose === "password_reset" ? "getPasswordResetPage" : "getVerifyEmailPage",
          tags,
          summary:
            purpose === "password_reset"
              ? "The password reset page (HTML) a reset mail links to"
              : "The email verification page (HTML) a verification mail links to",
          params: TokenParams,
        },
      },
      async (request, reply) => {
        const nonce = newNonce();
        const { token } = request.params as { token: string };
        if (!(await accountTokenIsLive(deps.db, deps.now(), token, purpose))) {
          const what =
            purpose === "password_reset" ? "Ask for a new reset link." : "Sign in and ask for a new link.";
          return sendPage(reply, 404, nonce, linkGonePage(nonce, what));
        }
        const html =
          purpose === "password_reset" ? passwordResetPage(token, nonce) : verifyEmailPage(token, nonce);
        return sendPage(reply, 200, nonce, html);
      },
    );
  page("/password-reset/:token", "password_reset");
  page("/verify-email/:token", "email_verification");
}
