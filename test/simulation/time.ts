import { EXPIRE_PENDING_JOB } from "../../src/modules/payments/expire.ts";
import { sendAsScheduled } from "../helpers/worker.ts";
import type { World } from "./world.ts";

/**
 * Time passes for the whole service at once. The app reads the fake clock (every service, the
 * sandbox chain and card provider, the rate limiter); the job queue counts on the database's clock,
 * so each job already waiting to start later is brought forward by the same amount, through
 * pg-boss's own `update` (a job due within the jump runs now). Jobs are never run, added or
 * removed by hand, and no application row is written: only the queue's timing moves.
 */
export async function advance(world: World, ms: number): Promise<void> {
  world.clock.advance(ms);
  const boss = world.t.deps.jobs.boss;
  const now = Date.now();
  for (const queue of await boss.getQueues()) {
    for (const job of await boss.findJobs(queue.name, { queued: true, limit: 10_000 })) {
      const startsAt = new Date(job.startAfter).getTime();
      if (startsAt <= now) continue;
      const seconds = Math.max(0, (startsAt - ms - now) / 1000);
      await boss.update({ name: queue.name, options: { id: job.id, startAfter: seconds } });
      // Its worker's wake-up was set for the old time: on the embedded engine, whose idle poll is
      // minutes, the job would otherwise wait for that poll (found by seed 871906858: an auction
      // ending 1.5 s after another was closed only then).
      world.t.deps.jobs.wakeAt(queue.name, new Date(now + seconds * 1000));
    }
  }
}

/**
 * The abandoned-cart sweep, as its cron (every minute, docs/payments.md "Abandoned payments
 * expire") would start it: a minute of the fake clock is seconds of the run, so the run plays the
 * cron. The job itself is the service's.
 */
export async function sweep(world: World): Promise<void> {
  await sendAsScheduled(world.t.deps.jobs.boss, EXPIRE_PENDING_JOB);
}

/**
 * Waits until what the run can see stops changing: the payments' statuses and chain fields, the
 * auctions' bids, and the webhook deliveries received, read alike for `quietMs` in a row (at most
 * `maxMs`). Jobs run on their own schedule, so a step waits for the state they bring, never for a
 * fixed time: a slow machine only makes the wait longer.
 */
export async function settle(world: World, quietMs = 700, maxMs = 8000): Promise<void> {
  const deadline = Date.now() + maxMs;
  let last = "";
  let since = Date.now();
  while (Date.now() < deadline) {
    const now = await snapshot(world);
    if (now !== last) {
      last = now;
      since = Date.now();
    } else if (Date.now() - since >= quietMs) {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

async function snapshot(world: World): Promise<string> {
  const payments = await world.allPayments();
  const parts = payments.map(
    (p) =>
      `${p.id}:${p.status}:${p.transaction_id}:${p.confirmation_status?.confirmations}:${p.amount_refunded}`,
  );
  for (const [i, known] of world.auctions.entries()) {
    if (!known) continue;
    const auction = await world.auction(i);
    parts.push(`${auction.id}:${auction.expired}:${auction.winner_bid_id}`);
    for (const bid of auction.bids) parts.push(`${bid.id}:${bid.status}`);
  }
  parts.push(`received:${world.receiver.received.length}`);
  return parts.join("|");
}
