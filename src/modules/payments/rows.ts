import { eq, sql } from "drizzle-orm";
import type { Deps } from "../../deps.ts";
import { type Database, prepared, type Tx } from "../../platform/db/index.ts";
import type { PaymentRow } from "./lifecycle.ts";
import { payments } from "./tables.ts";

/** A payment locked for the rest of the caller's transaction. */
export async function locked(tx: Tx, paymentId: string) {
  const [row] = await tx.select().from(payments).where(eq(payments.id, paymentId)).for("update");
  return row as PaymentRow | undefined;
}

// Every job reads its payment first: prepared.
const paymentById = (db: Database) =>
  db
    .select()
    .from(payments)
    .where(eq(payments.id, sql.placeholder("id")))
    .prepare("payment_by_id");

export async function read(deps: Pick<Deps, "db">, paymentId: string) {
  const [row] = await prepared(deps.db, "payment_by_id", paymentById).execute({ id: paymentId });
  return row as PaymentRow | undefined;
}

/**
 * The payment still names the seller it was read with. A statement that posts the books from a row
 * read before it (a job's, holding no lock) writes only while this holds: the app may re-point the
 * payout between the read and the write, and the entries would name the seller it left.
 */
export const sameSeller = (payment: PaymentRow) =>
  sql`${payments.kycId} is not distinct from ${payment.kycId}`;
