// `payments <command>`: reads the arguments, runs the command, and turns every failure into one
// line on stderr and exit code 1 (2 for a command line that makes no sense).
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { ApiError, PaymentsError } from "@payments-backend/sdk";
import { eventsGet, eventsList } from "./events.mjs";
import { listen } from "./listen.mjs";
import { login } from "./login.mjs";
import { TRIGGERS, trigger } from "./trigger.mjs";
import { UsageError } from "./usage-error.mjs";

const VERSION = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")).version;

const USAGE = `payments ${VERSION}: the payments back end on the command line

Usage:
  payments login --api-key <sk_…> [--url <service URL>]
      Check the key, and keep it (with its app) in ~/.config/payments-backend/config.json.
  payments listen --forward-to <URL> [--app <id>] [--events <type,…>]
      Stream the app's events and POST each to the URL, signed with a local secret (printed).
  payments trigger <event> [--app <id>]
      Make a sandbox payment that emits the event: ${TRIGGERS.join(", ")}.
  payments events list [--app <id>] [--type <type or family.*>] [--limit <n>] [--json]
  payments events get <evt_…> [--app <id>]

Options for every command:
  --url <URL>        the service (else the one saved by login, else $PAYMENTS_URL, else http://127.0.0.1:3000)
  --api-key <sk_…>   an API key (else $PAYMENTS_API_KEY, else the one saved by login)
  --app <id>         the app (else the saved key's app)
  -h, --help         this text
  -v, --version      the version
`;

/** What each command takes besides the common options. */
const OPTIONS = {
  url: { type: "string" },
  "api-key": { type: "string" },
  app: { type: "string" },
  "forward-to": { type: "string" },
  events: { type: "string" },
  type: { type: "string" },
  limit: { type: "string" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "v" },
};

/** Runs `payments` with these arguments; answers the exit code. */
export async function main(args, io = { out: process.stdout, err: process.stderr, env: process.env }) {
  let parsed;
  try {
    parsed = parseArgs({ args, options: /** @type {any} */ (OPTIONS), allowPositionals: true, strict: true });
  } catch (error) {
    io.err.write(`${/** @type {Error} */ (error).message}\n\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.version) {
    io.out.write(`${VERSION}\n`);
    return 0;
  }
  const [command, ...rest] = positionals;
  if (values.help || !command) {
    io.out.write(USAGE);
    return command || values.help ? 0 : 2;
  }
  try {
    if (command === "login") await login(values, io);
    else if (command === "listen") await listen(values, io);
    else if (command === "trigger") await trigger(rest[0], values, io);
    else if (command === "events" && rest[0] === "list") await eventsList(values, io);
    else if (command === "events" && rest[0] === "get") await eventsGet(rest[1], values, io);
    else throw new UsageError(`Unknown command: ${positionals.join(" ")}`);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.err.write(`${error.message}\n\n${USAGE}`);
      return 2;
    }
    io.err.write(`${describe(error)}\n`);
    return 1;
  }
}

/** One line for a failure: the service's own words, its code and request id when it answered. */
function describe(error) {
  if (error instanceof ApiError) {
    const id = error.requestId ? ` (request ${error.requestId})` : "";
    return `Error: ${error.message} [${error.code ?? error.status}]${id}`;
  }
  if (error instanceof PaymentsError) return `Error: ${error.message}`;
  return `Error: ${/** @type {Error} */ (error)?.message ?? String(error)}`;
}
