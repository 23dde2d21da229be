import { Type } from "typebox";
import { Body, nameSchemas, Timestamp, withExamples } from "../../platform/http/schemas.ts";

export const UserProfile = Type.Object({
  id: Type.String({ description: "The user's id" }),
  username: Type.String({ description: "Unique name shown to other members" }),
  email: Type.String({ description: "Where the user's mail goes; also the log-in" }),
  first_name: Type.String({ description: "Given name" }),
  last_name: Type.String({ description: "Family name" }),
  role: Type.String({ description: "Always `user` for people who sign up" }),
  created_at: Timestamp,
  disabled: Type.Boolean({ description: "A disabled user cannot log in" }),
});

export const UserSummary = Type.Object({
  id: Type.String({ description: "The user's id" }),
  username: Type.String({ description: "Unique name shown to other members" }),
  first_name: Type.String({ description: "Given name" }),
  last_name: Type.String({ description: "Family name" }),
});

const Email = Type.String({ format: "email", maxLength: 254 });
const Password = Type.String({ minLength: 12, maxLength: 256, description: "At least 12 characters" });

export const SignupBody = Body({
  email: Email,
  password: Password,
  username: Type.String({ minLength: 2, maxLength: 64, pattern: "^[A-Za-z0-9_.-]+$", description: "Unique" }),
  first_name: Type.String({ minLength: 1, maxLength: 128 }),
  last_name: Type.String({ minLength: 1, maxLength: 128 }),
});
withExamples(SignupBody, {
  email: "ada@example.com",
  password: "correct horse battery",
  username: "ada",
  first_name: "Ada",
  last_name: "Lovelace",
});

export const SignupResponse = Type.Object({ user: UserProfile, token: Type.String() });

export const LoginBody = Body({ email: Email, password: Type.String({ minLength: 1, maxLength: 256 }) });
withExamples(LoginBody, { email: "ada@example.com", password: "correct horse battery" });
export const LoginResponse = Type.Object({ token: Type.String(), expires_at: Timestamp });

// Named in the OpenAPI document (components.schemas), referenced wherever they appear.
nameSchemas({ UserProfile, UserSummary, SignupResponse, LoginResponse });
