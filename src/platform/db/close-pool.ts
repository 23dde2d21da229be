import type pg from "pg";

/**
 * Ends a pool and waits until every client's connection has really closed. `pool.end()` resolves
 * as soon as its clients are told to end, while their sockets are still open; a database dropped
 * or restarted in that window (the test helper drops each test database with `force`) then kills
 * those backends, and the error lands on a client nobody listens to any more: an uncaught exception.
 */
export async function closePool(pool: pg.Pool): Promise<void> {
  const open = pool.totalCount;
  let removed = 0;
  const allRemoved = new Promise<void>((resolve) => {
    if (open === 0) resolve();
    pool.on("remove", () => {
      removed++;
      if (removed >= open) resolve();
    });
  });
  // A client killed while ending reports its error here instead of crashing the process.
  pool.on("error", () => {});
  await pool.end();
  // Bounded, so a connection that never reports its end cannot hang a shutdown.
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, 5000);
  });
  await Promise.race([allRemoved, deadline]);
  clearTimeout(timer);
}
