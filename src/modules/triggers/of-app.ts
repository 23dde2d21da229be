import type { Executor } from "../../platform/db/index.ts";
import { isAppRecord } from "../../platform/http/app-record.ts";
import { triggers } from "./tables.ts";

/** Whether `triggerId` is a trigger of the app: a price may run only its app's own triggers. */
export async function isTriggerOfApp(db: Executor, appId: string, triggerId: string): Promise<boolean> {
  return isAppRecord(db, triggers, appId, triggerId);
}
