import type { Deps } from "../../deps.ts";
import { ListQuery, listResponse, pageOf, setListHeaders } from "../../platform/http/pagination.ts";
import { NoContent } from "../../platform/http/schemas.ts";
import type { Server } from "../../platform/http/server.ts";
import { AppParams } from "../apps/schemas.ts";
import { AcceptBody, ChangeRoleBody, InviteBody, Member, MemberParams } from "./schemas.ts";
import * as membersService from "./service.ts";

const tags = ["members"];

export async function memberRoutes(app: Server, deps: Deps) {
  app.get(
    "/members/:app_id",
    {
      schema: {
        operationId: "listMembers",
        tags,
        summary: "Members of an app, invitations included",
        params: AppParams,
        querystring: ListQuery,
        response: { 200: listResponse(Member, "Members, newest first") },
      },
    },
    async (request, reply) => {
      const page = pageOf(request.query);
      const { items, total, neighbours } = await membersService.listMembers(
        deps,
        request.actor,
        request.params.app_id,
        page,
      );
      setListHeaders(request, reply, page, total, neighbours);
      return items;
    },
  );

  app.get(
    "/members/:app_id/:member_id",
    {
      schema: {
        operationId: "getMember",
        tags,
        summary: "One member",
        params: MemberParams,
        response: { 200: Member },
      },
    },
    async (request) =>
      membersService.getMember(deps, request.actor, request.params.app_id, request.params.member_id),
  );

  app.post(
    "/members/:app_id",
    {
      schema: {
        operationId: "inviteMember",
        tags,
        summary: "Invite someone by email (owner only); the invitation goes out by mail",
        params: AppParams,
        body: InviteBody,
        response: { 201: Member },
      },
    },
    async (request, reply) => {
      const member = await membersService.inviteMember(
        deps,
        request.actor,
        request.params.app_id,
        request.body.email,
        request.body.role,
      );
      return reply.code(201).send(member);
    },
  );

  app.post(
    "/members/accept",
    {
      schema: {
        operationId: "acceptInvitation",
        tags,
        summary: "Accept an invitation as the signed-in user it was sent to",
        body: AcceptBody,
        response: { 200: Member },
      },
    },
    async (request) => membersService.acceptInvitation(deps, request.actor, request.body.invite_token),
  );

  app.patch(
    "/members/:app_id/:member_id",
    {
      schema: {
        operationId: "updateMember",
        tags,
        summary: "Change a member's role (owner only); the last owner cannot be demoted",
        params: MemberParams,
        body: ChangeRoleBody,
        response: { 200: Member },
      },
    },
    async (request) =>
      membersService.changeRole(
        deps,
        request.actor,
        request.params.app_id,
        request.params.member_id,
        request.body.role,
      ),
  );

  app.delete(
    "/members/:app_id/:member_id",
    {
      schema: {
        operationId: "removeMember",
        tags,
        summary: "Remove a member or withdraw an invitation (owner only); the last owner stays",
        params: MemberParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      await membersService.removeMember(deps, request.actor, request.params.app_id, request.params.member_id);
      return reply.code(204).send(null);
    },
  );
}
