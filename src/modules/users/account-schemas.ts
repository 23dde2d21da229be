import { Type } from "typebox";
import { IdParams } from "../../platform/http/params.ts";
import { nameSchemas, withExamples } from "../../platform/http/schema-docs.ts";
import { Body, Nullable, Timestamp } from "../../platform/http/schemas.ts";
import { Email, Password } from "./schemas.ts";

const Token = (what: string) => Type.String({ minLength: 1, maxLength: 256, description: what });

export const PasswordResetBody = Body({ email: Email });
withExamples(PasswordResetBody, { email: "ada@example.com" });

export const PasswordResetConfirmBody = Body({
  token: Token("The token from the reset mail's link (`pwr_…`)"),
  password: Password,
});
withExamples(PasswordResetConfirmBody, {
  token: "pwr_Qm9vZ2xlR3JhY2VIb3BwZXIxOTA2MTIwOTAwMDAw",
  password: "a new long passphrase",
});

export const ChangePasswordBody = Body({
  current_password: Type.String({ minLength: 1, maxLength: 256, description: "The account's password now" }),
  new_password: Password,
});
withExamples(ChangePasswordBody, {
  current_password: "correct horse battery",
  new_password: "a new long passphrase",
});

export const VerifyEmailBody = Body({
  token: Token("The token from the verification mail's link (`evt_…`)"),
});
withExamples(VerifyEmailBody, { token: "evt_Qm9vZ2xlR3JhY2VIb3BwZXIxOTA2MTIwOTAwMDAw" });

export const UpdateProfileBody = Body({
  email: Type.Optional(Email),
  username: Type.Optional(
    Type.String({
      minLength: 2,
      maxLength: 64,
      pattern: "^[A-Za-z0-9_.-]+$",
      description: "Unique name shown to other members",
    }),
  ),
  first_name: Type.Optional(Type.String({ minLength: 1, maxLength: 128, description: "Given name" })),
  last_name: Type.Optional(Type.String({ minLength: 1, maxLength: 128, description: "Family name" })),
  current_password: Type.Optional(
    Type.String({ minLength: 1, maxLength: 256, description: "Required when `email` changes" }),
  ),
});
withExamples(UpdateProfileBody, { email: "ada@example.org", current_password: "correct horse battery" });

export const Session = Type.Object(
  {
    id: Type.String({ description: "The session's id (`ses_…`), never its token" }),
    created_at: Timestamp,
    last_used_at: Nullable(Timestamp),
    expires_at: Timestamp,
    ip: Nullable(Type.String({ description: "The client address it was opened from" })),
    user_agent: Nullable(Type.String({ description: "The client's User-Agent when it was opened" })),
    current: Type.Boolean({ description: "Whether this is the session the request came with" }),
  },
  { description: "One of the signed-in user's sessions" },
);
withExamples(Session, {
  id: "ses_01m87s3v8jz4yz6eckzkdvqhg2",
  created_at: "2026-11-24T21:30:00.000Z",
  last_used_at: "2026-11-24T22:10:00.000Z",
  expires_at: "2026-12-01T21:30:00.000Z",
  ip: "203.0.113.7",
  user_agent: "Mozilla/5.0",
  current: true,
});

export const SessionParams = IdParams("session_id", "The session's id");

export const TokenParams = Type.Object({
  token: Type.String({ minLength: 1, maxLength: 100, description: "The token from the mail's link" }),
});

nameSchemas({ Session });
