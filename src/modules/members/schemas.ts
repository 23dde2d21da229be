import { Type } from "typebox";
import { ROLES } from "../../platform/auth/principal.ts";
import { oneOf } from "../../platform/http/literals.ts";
import { AppAndIdParams } from "../../platform/http/params.ts";
import { exampleOf, nameSchemas, withExamples } from "../../platform/http/schema-docs.ts";
import { Body, Nullable, Timestamp } from "../../platform/http/schemas.ts";
import { App } from "../apps/schemas.ts";
import { UserSummary } from "../users/schemas.ts";

const Role = oneOf(ROLES, {
  description: "`owner` (everything, members and deletion included) or `developer` (the app's resources)",
});

export const Member = Type.Object(
  {
    id: Type.String({ description: "The member's id (`mem_…`)" }),
    user_id: Nullable(Type.String({ description: "Null until the invitation is accepted" })),
    email: Type.String({ description: "The address the invitation was sent to" }),
    role: Role,
    user: Nullable(UserSummary),
    app: App,
    invite_token: Nullable(
      Type.String({ description: "Answered once, when the member is invited; null afterwards" }),
    ),
    invite_expires_at: Nullable(
      Type.String({
        format: "date-time",
        description:
          "When a pending invitation's link stops working (7 days after it was sent); null once accepted",
      }),
    ),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { description: "A person's role on an app, or a pending invitation (user_id null)" },
);

export const MemberParams = AppAndIdParams("member_id", "The member's id");
export const InviteBody = Body({
  email: Type.String({
    format: "email",
    maxLength: 254,
    description: "Who to invite; the invitation is mailed here",
  }),
  role: Role,
});
export const ChangeRoleBody = Body({ role: Role });
export const AcceptBody = Body({
  invite_token: Type.String({
    minLength: 1,
    maxLength: 256,
    description: "The invitation's token (`inv_…`), from the invitation mail's link",
  }),
});

withExamples(Member, {
  id: "mem_01m87s3v8jz4yz6eckzkdvqhg3",
  user_id: null,
  email: "grace@example.com",
  role: "developer",
  user: null,
  app: exampleOf(App),
  invite_token: "inv_Qm9vZ2xlR3JhY2VIb3BwZXIxOTA2MTIwOTAwMDAw",
  invite_expires_at: "2026-12-01T21:30:00.000Z",
  created_at: "2026-11-24T21:30:00.000Z",
  updated_at: "2026-11-24T21:30:00.000Z",
});
withExamples(InviteBody, { email: "grace@example.com", role: "developer" });
withExamples(ChangeRoleBody, { role: "owner" });
withExamples(AcceptBody, { invite_token: "inv_Qm9vZ2xlR3JhY2VIb3BwZXIxOTA2MTIwOTAwMDAw" });

// Named in the OpenAPI document (components.schemas), referenced wherever they appear.
nameSchemas({ Member });
