import { Type } from "typebox";
import type { Deps } from "../../deps.ts";
import * as route from "../../platform/http/routes.ts";
import { nameSchemas, withExamples } from "../../platform/http/schema-docs.ts";
import { Body, Timestamp } from "../../platform/http/schemas.ts";
import type { Server } from "../../platform/http/server.ts";
import { clientOf } from "./routes.ts";
import * as twoFactor from "./two-factor.ts";

const tags = ["users"];

const Code = Type.String({
  minLength: 6,
  maxLength: 32,
  description: "A six-digit code from the authenticator app, or one of the recovery codes",
});
const CodeBody = Body({ code: Code });
const ProvenBody = Body({
  current_password: Type.String({ minLength: 1, maxLength: 256, description: "The account's password" }),
  code: Code,
});
const LoginTwoFactorBody = Body({
  challenge_token: Type.String({
    minLength: 1,
    maxLength: 256,
    description: "The `challenge_token` the log-in's `two_factor_required` answer carried (`lch_…`)",
  }),
  code: Code,
});
withExamples(LoginTwoFactorBody, {
  challenge_token: "lch_Qm9vZ2xlR3JhY2VIb3BwZXIxOTA2MTIwOTAwMDAw",
  code: "123456",
});

export const TwoFactorSetup = Type.Object(
  {
    secret: Type.String({ description: "The TOTP secret (base32), shown this once" }),
    otpauth_url: Type.String({
      description: "The `otpauth://totp/…` URL an authenticator app scans as a QR code",
    }),
  },
  { description: "A two-factor set-up waiting for its first code" },
);
export const RecoveryCodes = Type.Object(
  {
    recovery_codes: Type.Array(Type.String(), {
      description: "Ten single-use codes for when the authenticator is lost, shown this once",
    }),
  },
  { description: "Recovery codes; only their hashes are kept" },
);
const Session = Type.Object(
  {
    token: Type.String({ description: "A session token: send it as `Authorization: Bearer <token>`" }),
    expires_at: Timestamp,
  },
  { description: "A new session" },
);
nameSchemas({ TwoFactorSetup, RecoveryCodes });
withExamples(CodeBody, { code: "123456" });
withExamples(ProvenBody, { current_password: "correct horse battery staple", code: "123456" });
withExamples(TwoFactorSetup, {
  secret: "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP",
  otpauth_url:
    "otpauth://totp/Payments:ada%40example.com?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Payments",
});
withExamples(RecoveryCodes, { recovery_codes: ["k7q2-9xw4", "m3vd-8tpa"] });
withExamples(Session, {
  token: "ses_Qm9vZ2xlR3JhY2VIb3BwZXIxOTA2MTIwOTAwMDAw",
  expires_at: "2026-12-03T21:30:00.000Z",
});

/** TOTP two-factor log-in: set-up, the log-in's second step, recovery codes, turning it off. */
export async function twoFactorRoutes(app: Server, deps: Deps) {
  app.post(
    "/users/me/two-factor",
    {
      schema: {
        operationId: "beginTwoFactor",
        tags,
        summary:
          "Start two-factor set-up: a new TOTP secret to scan; confirm it with /users/me/two-factor/enable",
        response: { 200: TwoFactorSetup },
      },
    },
    async (request) => twoFactor.beginTwoFactor(deps, request.actor),
  );

  app.post(
    "/users/me/two-factor/enable",
    {
      schema: {
        operationId: "enableTwoFactor",
        tags,
        summary: "Turn two-factor on with a first code; answers the recovery codes; other sessions end",
        body: CodeBody,
        response: { 200: RecoveryCodes },
      },
    },
    async (request) => twoFactor.enableTwoFactor(deps, request.actor, request.body.code),
  );

  app.post(
    "/users/me/two-factor/recovery-codes",
    {
      schema: {
        operationId: "regenerateRecoveryCodes",
        tags,
        summary: "New recovery codes (the old ones stop working), with the password and a code",
        body: ProvenBody,
        response: { 200: RecoveryCodes },
      },
    },
    async (request) =>
      twoFactor.regenerateRecoveryCodes(
        deps,
        request.actor,
        request.body.current_password,
        request.body.code,
      ),
  );

  route.noContent(
    app,
    "/users/me/two-factor/disable",
    {
      method: "POST",
      operationId: "disableTwoFactor",
      tags,
      summary: "Turn two-factor off, with the password and a code",
      body: ProvenBody,
    },
    (request) =>
      twoFactor.disableTwoFactor(deps, request.actor, request.body.current_password, request.body.code),
  );

  app.post(
    "/auth/login/2fa",
    {
      config: { public: true },
      schema: {
        operationId: "logInTwoFactor",
        tags,
        summary: "The log-in's second step: the challenge and a code give the session",
        body: LoginTwoFactorBody,
        response: { 200: Session },
      },
    },
    async (request) => {
      const session = await twoFactor.completeLogin(
        deps,
        request.body.challenge_token,
        request.body.code,
        clientOf(request),
      );
      return { token: session.token, expires_at: session.expiresAt.toISOString() };
    },
  );
}
