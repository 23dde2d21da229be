// The parsing every setting shares: a bad value stops start-up with a message naming the setting.

export class ConfigError extends Error {
  readonly setting: string;
  constructor(setting: string, message: string) {
    super(`Invalid setting ${setting}: ${message}`);
    this.setting = setting;
  }
}

export type Env = Record<string, string | undefined>;

export function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `expected an integer, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max}`);
  return value;
}

/** A decimal number (`24`, `0.5`): for durations where a fraction makes sense. */
export function decimal(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  if (!/^\d+(\.\d+)?$/.test(raw)) throw new ConfigError(name, `expected a number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max}`);
  return value;
}

export function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  if (["1", "true", "yes", "on"].includes(raw.toLowerCase())) return true;
  if (["0", "false", "no", "off"].includes(raw.toLowerCase())) return false;
  throw new ConfigError(name, `expected true or false, got "${raw}"`);
}
