import { Type } from "typebox";
import type { Deps } from "../../deps.ts";
import { pageFields } from "../../platform/http/pagination.ts";
import * as route from "../../platform/http/routes.ts";
import { Nullable, Timestamp } from "../../platform/http/schemas.ts";
import type { Server } from "../../platform/http/server.ts";
import { newNonce, sendPage } from "../../platform/pages/html.ts";
import { inboxPage } from "./page.ts";
import { listMails } from "./service.ts";

const tags = ["sandbox"];

const Mail = Type.Object(
  {
    id: Type.String({ description: "The mail's id (`mail_…`)" }),
    to: Type.String({ description: "The recipient's address" }),
    subject: Type.String({ description: "The subject line" }),
    text: Type.String({ description: "The whole message, links and tokens included" }),
    app_id: Nullable(Type.String({ description: "The app the mail is about, if any" })),
    created_at: Timestamp,
  },
  {
    examples: [
      {
        id: "mail_01m87s3v8k4r2fjc23vtvkbtk0",
        to: "grace@example.com",
        subject: "Ada invited you to Ada's shop",
        text: "Ada Lovelace invited you to Ada's shop as developer.\n\nAccept the invitation here:\nhttps://payments.example.com/invitations/inv_Qm9vZ2xlR3JhY2VIb3BwZXIxOTA2MTIwOTAwMDAw",
        app_id: "app_01m87s3v8h13edjthr38t9cfv8",
        created_at: "2026-11-24T21:30:00.000Z",
      },
    ],
  },
);

const MailQuery = Type.Object(
  {
    ...pageFields,
    to: Type.Optional(
      Type.String({ format: "email", maxLength: 254, description: "Only mail to this address" }),
    ),
  },
  { additionalProperties: false },
);

/**
 * The sandbox inbox (sandbox mode only; the routes do not exist otherwise, so they answer 404):
 * the mails the sandbox mailer sent, in full, to the people entitled to read them.
 */
export async function sandboxInboxRoutes(app: Server, deps: Deps) {
  route.list(
    app,
    "/sandbox/mail",
    {
      operationId: "listSandboxMail",
      tags,
      summary: "Sandbox mode: the mails sent to the signed-in user and about the apps they own, newest first",
      querystring: MailQuery,
      item: Mail,
      answer: "Mails, newest first",
    },
    (request, page) => listMails(deps, request.actor, page, request.query.to),
  );

  app.get(
    "/sandbox/mail/inbox",
    {
      config: { public: true, page: "text/html" },
      schema: {
        operationId: "getSandboxInboxPage",
        tags,
        summary: "Sandbox mode: the inbox page (HTML); sign in to read your mail",
      },
    },
    async (_request, reply) => {
      const nonce = newNonce();
      return sendPage(reply, 200, nonce, inboxPage(nonce));
    },
  );
}
