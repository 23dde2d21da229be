// Where `payments login` keeps what it was given: one JSON file only its owner can read, since it
// holds an API key.
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, join } from "node:path";

/**
 * @typedef {object} Config
 * @property {string} [url] Where the service answers.
 * @property {string} [apiKey] The API key (`sk_…`) of one app.
 * @property {string} [appId] The key's app.
 * @property {string} [appName]
 * @property {string} [listenSecret] The `whsec_…` secret `listen` signs forwarded events with.
 */

/** `$XDG_CONFIG_HOME/payments-backend/config.json`, else `~/.config/payments-backend/config.json`. */
export function configPath(env = process.env) {
  const base = env.XDG_CONFIG_HOME || join(homedir(), ".config");
  return join(base, "payments-backend", "config.json");
}

/** The saved configuration, or an empty one before the first `login`. */
export async function loadConfig(env = process.env) {
  try {
    return /** @type {Config} */ (JSON.parse(await readFile(configPath(env), "utf8")));
  } catch (error) {
    if (/** @type {NodeJS.ErrnoException} */ (error).code === "ENOENT") return /** @type {Config} */ ({});
    throw new Error(`Cannot read ${configPath(env)}: ${/** @type {Error} */ (error).message}`);
  }
}

/** Saves the configuration: the folder 700, the file 600 (also when it existed with wider modes). */
export async function saveConfig(config, env = process.env) {
  const path = configPath(env);
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  await writeFile(path, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  await chmod(path, 0o600);
  return path;
}
