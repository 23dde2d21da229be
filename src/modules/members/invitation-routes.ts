import { Type } from "typebox";
import type { Deps } from "../../deps.ts";
import { AppError } from "../../platform/http/errors.ts";
import type { Server } from "../../platform/http/server.ts";
import { newNonce, sendPage } from "../../platform/pages/html.ts";
import { appBrand } from "../apps/for-pages.ts";
import { invitationGonePage, invitationPage } from "./invitation-page.ts";
import { viewInvitation } from "./service.ts";

// Tokens are `inv_` and 43 characters; the router refuses longer paths than 100 anyway (414).
const Params = Type.Object({
  invite_token: Type.String({
    minLength: 1,
    maxLength: 100,
    description: "The invitation's token (`inv_…`), from the mail",
  }),
});

/** The hosted page an invitation mail links to; the invite token in its URL is its only credential. */
export async function invitationRoutes(app: Server, deps: Deps) {
  app.get(
    "/invitations/:invite_token",
    {
      config: { public: true, htmlErrors: true },
      // The token is in the URL and request logs carry URLs: this route logs only warnings and
      // errors, which carry no URL.
      logLevel: "warn",
      schema: {
        operationId: "getInvitationPage",
        tags: ["members"],
        summary: "The invitation page (HTML): the app and the role; sign in or sign up, then accept",
        params: Params,
      },
    },
    async (request, reply) => {
      const nonce = newNonce();
      try {
        const invitation = await viewInvitation(deps, request.params.invite_token);
        const view = {
          invite_token: request.params.invite_token,
          email: invitation.email,
          role: invitation.role,
          app_name: invitation.appName,
        };
        const brand = await appBrand(deps.db, invitation.appId);
        return sendPage(reply, 200, nonce, invitationPage(view, nonce, brand));
      } catch (error) {
        if (error instanceof AppError && error.code === "not_found") {
          return sendPage(reply, 404, nonce, invitationGonePage(nonce));
        }
        throw error;
      }
    },
  );
}
