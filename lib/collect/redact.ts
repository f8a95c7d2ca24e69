/**
 * Keeps secrets out of every file the collector writes. Keys are read from the environment by the
 * providers and never passed to the collector, but provider error messages, base URLs with query
 * tokens or a misconfigured proxy could still echo one back; each line is therefore scrubbed before it
 * is written. A variable counts as secret when its name contains KEY, TOKEN, SECRET or PASSWORD and its
 * value is at least 8 characters (shorter values would match ordinary text), or when a model of the
 * run names it as its key variable (spec@URL=VARIABLE, api_key_env), whatever its name.
 */
export type Redactor = (text: string) => string;

const SECRET_NAME = /(KEY|TOKEN|SECRET|PASSWORD)/i;

/** Shortest value of a variable named as a key (spec@URL=VARIABLE, api_key_env) that is still redacted. */
const NAMED_MIN = 4;

/**
 * The secret values of `env`: variables whose name looks secret (≥ 8 characters), and every variable
 * in `named` — the key variables the run's models name, whatever they are called (≥ 4 characters).
 */
export function secretValues(env: NodeJS.ProcessEnv = process.env, named: readonly string[] = []): Array<{ name: string; value: string }> {
  const namedSet = new Set(named);
  return Object.entries(env)
    .filter((entry): entry is [string, string] => typeof entry[1] === 'string')
    .filter(([name, value]) => (SECRET_NAME.test(name) && value.length >= 8) || (namedSet.has(name) && value.trim().length >= NAMED_MIN))
    .map(([name, value]) => ({ name, value }))
    .sort((a, b) => b.value.length - a.value.length);
}

/** Replaces each secret value (and its JSON-escaped form) with `[REDACTED:NAME]`, in every line of every file the run writes. */
export function makeRedactor(env: NodeJS.ProcessEnv = process.env, named: readonly string[] = []): Redactor {
  const secrets = secretValues(env, named).flatMap(({ name, value }) => {
    const escaped = JSON.stringify(value).slice(1, -1);
    return escaped === value ? [{ name, value }] : [{ name, value }, { name, value: escaped }];
  });
  if (secrets.length === 0) return (text) => text;
  return (text) => {
    let out = text;
    for (const { name, value } of secrets) {
      if (out.includes(value)) out = out.split(value).join(`[REDACTED:${name}]`);
    }
    return out;
  };
}
