import { and, eq } from "drizzle-orm";
import type { Executor } from "../../platform/db/index.ts";
import { triggers } from "./tables.ts";

/** Whether `triggerId` is a trigger of the app: a price may run only its app's own triggers. */
export async function isTriggerOfApp(db: Executor, appId: string, triggerId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: triggers.id })
    .from(triggers)
    .where(and(eq(triggers.appId, appId), eq(triggers.id, triggerId)));
  return row !== undefined;
}
