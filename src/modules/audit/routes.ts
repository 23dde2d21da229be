import { Type } from "typebox";
import type { Deps } from "../../deps.ts";
import { pageFields } from "../../platform/http/pagination.ts";
import { AppParams } from "../../platform/http/params.ts";
import * as route from "../../platform/http/routes.ts";
import { nameSchemas, withExamples } from "../../platform/http/schema-docs.ts";
import { Nullable, Timestamp } from "../../platform/http/schemas.ts";
import type { Server } from "../../platform/http/server.ts";
import { listAuditEvents } from "./service.ts";

export const AuditEvent = Type.Object(
  {
    id: Type.String({ description: "The record's id (`aud_…`)" }),
    app_id: Type.String({ description: "The app changed" }),
    actor: Type.Object(
      {
        type: Type.Union([Type.Literal("user"), Type.Literal("api_key"), Type.Literal("operator")], {
          description:
            "A member's session (`user`), an app API key (`api_key`), or a command the service's operator ran (`operator`: the master-key rotation)",
        }),
        id: Type.String({ description: "The user's id, the API key's id, or the operator's `account@host`" }),
      },
      { description: "Who made the change" },
    ),
    credential_id: Type.String({
      description:
        "Which credential: the session's id (`ses_…`) for a user, the key's id for a key, the new master key's fingerprint id (`mk_…`) for a rotation",
    }),
    action: Type.String({
      description:
        "What was done, `<record>.<verb>`: `api_key.create`, `member.role.owner`, `payment.refund`… (docs/accounts.md lists them)",
    }),
    target_id: Nullable(Type.String({ description: "The record changed; it may since have been deleted" })),
    ip: Nullable(Type.String({ description: "The client address the request came from" })),
    created_at: Timestamp,
  },
  { description: "One change a member or key made to the app" },
);
withExamples(AuditEvent, {
  id: "aud_01m87s3v8jz4yz6eckzkdvqhg2",
  app_id: "app_01m87s3v8h13edjthr38t9cfv8",
  actor: { type: "user", id: "usr_01m87s3v8jz4yz6eckzkdvqhg2" },
  credential_id: "ses_01m87s3v8jz4yz6eckzkdvqhg3",
  action: "api_key.create",
  target_id: "key_01m87s3v8jz4yz6eckzkdvqhg4",
  ip: "203.0.113.7",
  created_at: "2026-11-24T21:30:00.000Z",
});
nameSchemas({ AuditEvent });

const AuditQuery = Type.Object(
  {
    ...pageFields,
    action: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        pattern: "^[a-z_.]+\\*?$",
        description: "Only this action, or a family ending in `*` (`member.*`)",
      }),
    ),
    actor: Type.Optional(
      Type.String({ minLength: 1, maxLength: 64, description: "Only this user's or key's changes" }),
    ),
    since: Type.Optional(Type.String({ format: "date-time", description: "From this instant, inclusive" })),
    until: Type.Optional(Type.String({ format: "date-time", description: "Before this instant" })),
  },
  { additionalProperties: false },
);

export async function auditRoutes(app: Server, deps: Deps) {
  route.list(
    app,
    "/apps/:app_id/audit-log",
    {
      operationId: "listAuditLog",
      tags: ["apps"],
      summary: "The app's audit log (owners): every change its members and keys made, newest first",
      params: AppParams,
      querystring: AuditQuery,
      item: AuditEvent,
      answer: "Changes, newest first",
    },
    (request, page) => {
      const { action, actor, since, until } = request.query;
      return listAuditEvents(deps, request.actor, request.params.app_id, page, {
        action,
        actor,
        since,
        until,
      });
    },
  );
}
