// `payments events list` and `payments events get <id>`: the app's event log (30 days), newest
// first, as a table for people or JSON lines (`--json`) for programs such as `jq`.
import { connection } from "./client.mjs";
import { UsageError } from "./usage-error.mjs";

/** What an event is about, in a word: the payment, KYC record, auction or wallet it names. */
function subject(event) {
  const data = event.data ?? {};
  return data.id ?? data.kyc_id ?? data.bid_id ?? data.auction_id ?? data.wallet_id ?? "";
}

export async function eventsList(values, io) {
  const limit = values.limit === undefined ? 20 : Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
    throw new UsageError("--limit takes a whole number from 1 to 1000");
  }
  const { client, appId } = await connection(values, io.env);
  const query = { limit: Math.min(limit, 100), ...(values.type ? { type: values.type } : {}) };
  const events = await client.events.list(appId, query).toArray(limit);
  if (values.json) {
    for (const event of events) io.out.write(`${JSON.stringify(event)}\n`);
    return;
  }
  if (events.length === 0) {
    io.out.write("No events.\n");
    return;
  }
  const width = Math.max(...events.map((event) => event.type.length));
  for (const event of events) {
    io.out.write(`${event.timestamp}  ${event.id}  ${event.type.padEnd(width)}  ${subject(event)}\n`);
  }
}

export async function eventsGet(id, values, io) {
  if (!id) throw new UsageError("events get needs an event id (evt_…)");
  const { client, appId } = await connection(values, io.env);
  const event = await client.events.get(appId, id);
  io.out.write(`${JSON.stringify(event, null, 2)}\n`);
}
