import { Type } from "typebox";
import { exampleOf, nameSchemas, withExamples } from "../../platform/http/schema-docs.ts";
import { Body, Timestamp } from "../../platform/http/schemas.ts";

export const UserProfile = Type.Object(
  {
    id: Type.String({ description: "The user's id" }),
    username: Type.String({ description: "Unique name shown to other members" }),
    email: Type.String({ description: "Where the user's mail goes; also the log-in" }),
    first_name: Type.String({ description: "Given name" }),
    last_name: Type.String({ description: "Family name" }),
    role: Type.String({ description: "Always `user` for people who sign up" }),
    created_at: Timestamp,
    disabled: Type.Boolean({ description: "A disabled user cannot log in" }),
    email_verified: Type.Boolean({
      description: "Whether `email` was proven by its verification link (docs/accounts.md)",
    }),
    two_factor_enabled: Type.Boolean({ description: "Whether log-in asks for an authenticator code" }),
  },
  { description: "The signed-in user's own profile" },
);

export const UserSummary = Type.Object(
  {
    id: Type.String({ description: "The user's id" }),
    username: Type.String({ description: "Unique name shown to other members" }),
    first_name: Type.String({ description: "Given name" }),
    last_name: Type.String({ description: "Family name" }),
  },
  { description: "A user as other members see them" },
);

export const Email = Type.String({
  format: "email",
  maxLength: 254,
  description: "The email address, also the log-in",
});
export const Password = Type.String({ minLength: 12, maxLength: 256, description: "At least 12 characters" });

export const SignupBody = Body({
  email: Email,
  password: Password,
  username: Type.String({
    minLength: 2,
    maxLength: 64,
    pattern: "^[A-Za-z0-9_.-]+$",
    description: "Unique name shown to other members: letters, digits, `_`, `.`, `-`",
  }),
  first_name: Type.String({ minLength: 1, maxLength: 128, description: "Given name" }),
  last_name: Type.String({ minLength: 1, maxLength: 128, description: "Family name" }),
});
withExamples(SignupBody, {
  email: "ada@example.com",
  password: "correct horse battery",
  username: "ada",
  first_name: "Ada",
  last_name: "Lovelace",
});

export const SignupResponse = Type.Object(
  {
    user: UserProfile,
    token: Type.String({ description: "A session token: send it as `Authorization: Bearer <token>`" }),
  },
  { description: "The new account and its first session" },
);

export const LoginBody = Body({
  email: Email,
  password: Type.String({ minLength: 1, maxLength: 256, description: "The account's password" }),
});
withExamples(LoginBody, { email: "ada@example.com", password: "correct horse battery" });
export const LoginResponse = Type.Object(
  {
    token: Type.String({ description: "A session token: send it as `Authorization: Bearer <token>`" }),
    expires_at: Timestamp,
  },
  { description: "A new session" },
);

withExamples(UserProfile, {
  id: "usr_01m87s3v8jz4yz6eckzkdvqhg2",
  username: "ada",
  email: "ada@example.com",
  first_name: "Ada",
  last_name: "Lovelace",
  role: "user",
  created_at: "2026-11-24T21:30:00.000Z",
  disabled: false,
  email_verified: true,
  two_factor_enabled: false,
});
withExamples(UserSummary, {
  id: "usr_01m87s3v8jz4yz6eckzkdvqhg2",
  username: "ada",
  first_name: "Ada",
  last_name: "Lovelace",
});
const SESSION_TOKEN = "ust_xyCGRLDsWQspMtMb2pPDsr5iBU9iYRNO5_uxNisA9VrM";
withExamples(SignupResponse, { user: exampleOf(UserProfile), token: SESSION_TOKEN });
withExamples(LoginResponse, { token: SESSION_TOKEN, expires_at: "2026-11-25T09:30:00.000Z" });

// Named in the OpenAPI document (components.schemas), referenced wherever they appear.
nameSchemas({ UserProfile, UserSummary, SignupResponse, LoginResponse });
