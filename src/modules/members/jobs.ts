import type { Deps } from "../../deps.ts";
import type { JobDefinition } from "../../platform/jobs/index.ts";

export interface InvitationMail {
  email: string;
  appName: string;
  inviter: string;
  role: string;
  token: string;
}

export const INVITATION_JOB = "members.send-invitation";

/** Sends the invitation mail; enqueued in the transaction that creates the member. */
export function invitationJob(deps: Pick<Deps, "mailer" | "config">): JobDefinition<InvitationMail> {
  return {
    name: INVITATION_JOB,
    retryLimit: 10,
    async handle(data) {
      await deps.mailer.send({
        to: data.email,
        subject: `${data.inviter} invited you to ${data.appName}`,
        text:
          `You were invited to the app "${data.appName}" as ${data.role}.\n` +
          `Sign in (or sign up with this email) at ${deps.config.publicUrl}, then accept with\n` +
          `POST /members/accept {"invite_token": "${data.token}"}\n`,
      });
    },
  };
}
