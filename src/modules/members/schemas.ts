import { Type } from "typebox";
import { ROLES } from "../../platform/auth/principal.ts";
import { oneOf } from "../../platform/http/literals.ts";
import { Body, Nullable, nameSchemas, Timestamp } from "../../platform/http/schemas.ts";
import { App } from "../apps/schemas.ts";
import { UserSummary } from "../users/schemas.ts";

const Role = oneOf(ROLES);

export const Member = Type.Object({
  id: Type.String(),
  user_id: Nullable(Type.String({ description: "Null until the invitation is accepted" })),
  email: Type.String(),
  role: Role,
  user: Nullable(UserSummary),
  app: App,
  invite_token: Nullable(
    Type.String({ description: "Answered once, when the member is invited; null afterwards" }),
  ),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const MemberParams = Type.Object({
  app_id: Type.String({ maxLength: 64 }),
  member_id: Type.String({ maxLength: 64 }),
});
export const InviteBody = Body({ email: Type.String({ format: "email", maxLength: 254 }), role: Role });
export const ChangeRoleBody = Body({ role: Role });
export const AcceptBody = Body({ invite_token: Type.String({ minLength: 1, maxLength: 256 }) });

// Named in the OpenAPI document (components.schemas), referenced wherever they appear.
nameSchemas({ Member });
