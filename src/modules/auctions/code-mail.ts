import { and, eq, gt, isNotNull, isNull } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import { resealColumn, sealedTextColumn } from "../../platform/crypto/reseal.ts";
import { type ShopperCodeMail, shopperCodeContext } from "./shoppers.ts";
import { shopperCodes } from "./tables.ts";

/*
 * The sign-in code's mail, as the invitation's (src/modules/members/jobs.ts): the job's data names
 * the code's row; the code is opened from the row's sealed copy and dropped from it once mailed,
 * so neither the queue (which keeps finished jobs for days) nor the table keeps it readable.
 */

/** The code still waiting for its mail: undefined once mailed, used, replaced or expired. */
async function waitingCode(deps: Pick<Deps, "db" | "custody" | "now">, codeId: string) {
  const [row] = await deps.db
    .select({ sealed: shopperCodes.codeSealed })
    .from(shopperCodes)
    .where(
      and(
        eq(shopperCodes.id, codeId),
        isNull(shopperCodes.usedAt),
        gt(shopperCodes.expiresAt, deps.now()),
        isNotNull(shopperCodes.codeSealed),
      ),
    );
  if (!row?.sealed) return undefined;
  return { code: deps.custody.openText(shopperCodeContext(codeId), row.sealed), sealed: row.sealed };
}

export async function mailShopperCode(
  deps: Pick<Deps, "db" | "custody" | "now" | "mailer" | "config">,
  data: ShopperCodeMail,
): Promise<void> {
  const waiting = data.codeId ? await waitingCode(deps, data.codeId) : undefined;
  const code = data.code ?? waiting?.code;
  if (!code) return; // replaced, used or expired before the mail went, or a retry after it went
  // The code goes into the auction's page, where the shopper asked for it: the mail links back.
  const page = data.auctionId
    ? `Enter it on the auction's page to sign in and bid:\n${deps.config.publicUrl}/a/${data.auctionId}\n`
    : "";
  await deps.mailer.send({
    to: data.email,
    appId: data.appId,
    subject: `Your code to bid on ${data.auctionName}`,
    text: `Your one-time code is ${code}. It works once, for 10 minutes.\n${page}`,
  });
  if (data.codeId && waiting) {
    await deps.db
      .update(shopperCodes)
      .set({ codeSealed: null })
      .where(and(eq(shopperCodes.id, data.codeId), eq(shopperCodes.codeSealed, waiting.sealed)));
  }
}

/** Re-seals the sign-in codes still waiting for their mail, for `npm run rotate-master-key`. */
export async function resealShopperCodes(deps: Pick<Deps, "db" | "custody">): Promise<number> {
  return resealColumn(
    deps.custody,
    sealedTextColumn(deps.db, shopperCodes, "codeSealed", shopperCodeContext),
  );
}
