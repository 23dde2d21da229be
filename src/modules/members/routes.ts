import type { Deps } from "../../deps.ts";
import { AppParams } from "../../platform/http/params.ts";
import * as route from "../../platform/http/routes.ts";
import type { Server } from "../../platform/http/server.ts";
import { AcceptBody, ChangeRoleBody, InviteBody, Member, MemberParams } from "./schemas.ts";
import * as membersService from "./service.ts";

const tags = ["members"];

export async function memberRoutes(app: Server, deps: Deps) {
  route.list(
    app,
    "/members/:app_id",
    {
      operationId: "listMembers",
      tags,
      summary: "Members of an app, invitations included",
      params: AppParams,
      item: Member,
      answer: "Members, newest first",
    },
    (request, page) => membersService.listMembers(deps, request.actor, request.params.app_id, page),
  );

  route.get(
    app,
    "/members/:app_id/:member_id",
    {
      operationId: "getMember",
      tags,
      summary: "One member",
      params: MemberParams,
      resource: Member,
    },
    (request) =>
      membersService.getMember(deps, request.actor, request.params.app_id, request.params.member_id),
  );

  route.created(
    app,
    "/members/:app_id",
    {
      operationId: "inviteMember",
      tags,
      summary: "Invite someone by email (owner only); the invitation goes out by mail",
      params: AppParams,
      body: InviteBody,
      resource: Member,
    },
    (request) =>
      membersService.inviteMember(
        deps,
        request.actor,
        request.params.app_id,
        request.body.email,
        request.body.role,
      ),
  );

  route.update(
    app,
    "/members/accept",
    {
      operationId: "acceptInvitation",
      tags,
      summary: "Accept an invitation as the signed-in user it was sent to",
      body: AcceptBody,
      method: "POST",
      resource: Member,
    },
    (request) => membersService.acceptInvitation(deps, request.actor, request.body.invite_token),
  );

  route.update(
    app,
    "/members/:app_id/:member_id/resend",
    {
      operationId: "resendInvitation",
      tags,
      summary:
        "Send a pending invitation again (owner only): a new token and link, valid 7 days; the old link stops working",
      params: MemberParams,
      method: "POST",
      resource: Member,
    },
    (request) =>
      membersService.resendInvitation(deps, request.actor, request.params.app_id, request.params.member_id),
  );

  route.update(
    app,
    "/members/:app_id/:member_id",
    {
      operationId: "updateMember",
      tags,
      summary: "Change a member's role (owner only); the last owner cannot be demoted",
      params: MemberParams,
      body: ChangeRoleBody,
      resource: Member,
    },
    (request) =>
      membersService.changeRole(
        deps,
        request.actor,
        request.params.app_id,
        request.params.member_id,
        request.body.role,
      ),
  );

  route.noContent(
    app,
    "/members/:app_id/:member_id",
    {
      operationId: "removeMember",
      tags,
      summary: "Remove a member or withdraw an invitation (owner only); the last owner stays",
      params: MemberParams,
    },
    (request) =>
      membersService.removeMember(deps, request.actor, request.params.app_id, request.params.member_id),
  );
}
