import type { TestApp } from "./app.ts";

/**
 * The statements that read or write payments while `run` runs, by their text, as the app's pool
 * (or PGlite) is asked them: for tests that count what a request or a job sends.
 */
export function paymentStatements(app: TestApp, run: () => Promise<unknown>): Promise<string[]> {
  return statementsWhile(app, run, (text) => /"payments"/.test(text));
}

/** Every statement sent while `run` runs (those `keep` keeps), by its text, as `paymentStatements`. */
export async function statementsWhile(
  app: TestApp,
  run: () => Promise<unknown>,
  keep: (text: string) => boolean = () => true,
): Promise<string[]> {
  const { database } = app.deps;
  const client = (database.engine === "postgres" ? database.pool : database.pglite) as unknown as {
    query: (...args: unknown[]) => Promise<unknown>;
  };
  const query = client.query;
  const seen: string[] = [];
  client.query = function (this: unknown, ...args: unknown[]) {
    const text = typeof args[0] === "string" ? args[0] : (args[0] as { text: string }).text;
    if (keep(text)) seen.push(text);
    return query.apply(this, args);
  };
  try {
    await run();
  } finally {
    client.query = query;
  }
  return seen;
}
