import { createHash } from 'node:crypto';
import { parseArgs } from 'node:util';

/**
 * The one flag parser of every kstbench command. A command declares its flags with typed specs
 * (integer ranges, numbers, durations, enums, seeds, paths, plain strings, booleans); `parseFlags`
 * turns argv into typed values or throws a UsageError (exit 2) naming the flag, the accepted range
 * and an example. Why one parser: a flag checked only by the library it feeds fails as bad input
 * (exit 1) with the library's words, or not at all (`--perm 1e20` looped for ever, `--boot 2^32` died
 * allocating, `--poll-interval 9999999` overflowed Node's timer into a 1 ms poll).
 *
 * Caps: durations stay below Node's timer limit (2^31 − 1 ms) and every count that sizes an
 * allocation or a loop has a declared maximum, so no accepted value can exhaust memory or time
 * before the command's own budget checks run.
 */

/** A mistake in how the command was called (unknown flag, missing required option, value out of range). Exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** Node's timers hold at most 2^31 − 1 ms (~24.8 days); a longer delay silently fires after 1 ms. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** Largest integer seed: seeds stay exact as JavaScript numbers (and in JSON). */
export const MAX_SEED = Number.MAX_SAFE_INTEGER;

export type FlagSpec =
  | { kind: 'boolean' }
  | { kind: 'string'; multiple?: boolean; placeholder?: string }
  | { kind: 'path'; multiple?: boolean }
  | { kind: 'enum'; values: readonly string[] }
  | { kind: 'int'; min: number; max: number; example: number }
  | { kind: 'number'; min: number; max: number; example: number; minExclusive?: boolean }
  | { kind: 'duration'; unit: 's' | 'min'; example: number; integer?: boolean }
  | { kind: 'seed' };

/** Builders for the specs (they keep the literal kinds the value types are computed from). */
export const flag = {
  boolean: () => ({ kind: 'boolean' }) as const,
  string: () => ({ kind: 'string' }) as const,
  strings: () => ({ kind: 'string', multiple: true }) as const,
  path: () => ({ kind: 'path' }) as const,
  paths: () => ({ kind: 'path', multiple: true }) as const,
  enum: <V extends readonly string[]>(values: V) => ({ kind: 'enum', values }) as const,
  /** An integer in min..max (both inclusive). */
  int: (min: number, max: number, example: number) => ({ kind: 'int', min, max, example }) as const,
  /** A finite decimal number in [min, max] ((min, max] with minExclusive). */
  number: (min: number, max: number, example: number, minExclusive = false) => ({ kind: 'number', min, max, example, minExclusive }) as const,
  /** A positive duration in seconds or minutes (decimals allowed unless `integer`), parsed to ms, below the timer limit. */
  duration: (unit: 's' | 'min', example: number, integer = false) => ({ kind: 'duration', unit, example, integer }) as const,
  /** An integer in 0..2^53 − 1, or any other text hashed to one (see seedFromText). */
  seed: () => ({ kind: 'seed' }) as const,
};

export type FlagSpecs = Readonly<Record<string, FlagSpec>>;

type ValueOf<S extends FlagSpec> = S extends { kind: 'boolean' }
  ? boolean
  : S extends { kind: 'int' | 'number' | 'duration' }
    ? number
    : S extends { multiple: true }
      ? string[]
      : string;

/** Parsed values: durations in milliseconds, seeds as decimal integer strings, absent flags undefined. */
export type FlagValues<T extends FlagSpecs> = { [K in keyof T]?: ValueOf<T[K]> };

export interface ParsedFlags<T extends FlagSpecs> {
  values: FlagValues<T>;
  positionals: string[];
  /** Notes for stderr (a seed text that was hashed, and to what). */
  notes: string[];
}

/** The range of a numeric flag in words, as usage errors and --help print it. */
export function describeRange(name: string, spec: FlagSpec): string {
  switch (spec.kind) {
    case 'int':
      return `an integer in ${spec.min}..${spec.max} (e.g. --${name} ${spec.example})`;
    case 'number':
      return `a number in ${spec.minExclusive ? '(' : '['}${spec.min}, ${spec.max}] (e.g. --${name} ${spec.example})`;
    case 'duration': {
      const max = spec.unit === 's' ? Math.floor(MAX_TIMER_MS / 1000) : Math.floor(MAX_TIMER_MS / 60_000);
      const what = spec.integer ? 'a whole number' : 'a number';
      return `${what} of ${spec.unit === 's' ? 'seconds' : 'minutes'} in (0, ${max}] (Node's timer limit, 2^31-1 ms) (e.g. --${name} ${spec.example})`;
    }
    case 'enum':
      return `one of ${spec.values.join(', ')} (e.g. --${name} ${spec.values[0]})`;
    case 'seed':
      return `an integer in 0..${MAX_SEED} (2^53-1), or a text that is hashed to one (e.g. --${name} 20260908)`;
    default:
      return 'a value';
  }
}

function refuse(name: string, spec: FlagSpec, raw: string): never {
  throw new UsageError(`--${name} must be ${describeRange(name, spec)}, got ${JSON.stringify(raw)}`);
}

/** The integer a non-numeric seed text stands for: the first 52 bits of its SHA-256 (so 0 ≤ value < 2^52). */
export function seedFromText(text: string): number {
  return parseInt(createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 13), 16);
}

const DECIMAL = /^(?:\d+(?:\.\d+)?|\.\d+)$/;

/** Checks one raw value against its spec; returns the typed value (and a note for a hashed seed). */
export function checkFlag(name: string, spec: FlagSpec, raw: string): { value: string | number; note?: string } {
  switch (spec.kind) {
    case 'int': {
      const text = raw.trim();
      if (!/^-?\d+$/.test(text)) refuse(name, spec, raw);
      // Compare as BigInt: 99999999999999999999 must not round to a value inside the range.
      const big = BigInt(text);
      if (big < BigInt(spec.min) || big > BigInt(spec.max)) refuse(name, spec, raw);
      return { value: Number(big) };
    }
    case 'number': {
      const value = Number(raw);
      if (raw.trim() === '' || !Number.isFinite(value) || value > spec.max || value < spec.min || (spec.minExclusive && value === spec.min)) {
        refuse(name, spec, raw);
      }
      return { value };
    }
    case 'duration': {
      const text = raw.trim();
      if (!(spec.integer ? /^\d+$/ : DECIMAL).test(text)) refuse(name, spec, raw);
      const ms = Math.round(Number(text) * (spec.unit === 's' ? 1000 : 60_000));
      if (!(ms >= 1) || ms > MAX_TIMER_MS) refuse(name, spec, raw);
      return { value: ms };
    }
    case 'enum':
      if (!spec.values.includes(raw)) refuse(name, spec, raw);
      return { value: raw };
    case 'seed': {
      const text = raw.trim();
      if (/^\d+$/.test(text)) {
        if (BigInt(text) > BigInt(MAX_SEED)) refuse(name, spec, raw);
        return { value: String(Number(text)) };
      }
      if (text === '') refuse(name, spec, raw);
      const hashed = String(seedFromText(raw));
      return { value: hashed, note: `--${name} ${JSON.stringify(raw)} is not an integer; using its hash ${hashed} (the value recorded)` };
    }
    case 'path':
      if (raw === '') throw new UsageError(`--${name} needs a file or folder name, got ""`);
      return { value: raw };
    default:
      return { value: raw };
  }
}

/**
 * Parses argv against the declared flags. `--help`/`-h` prints `help` and returns null. Unknown
 * flags, a missing value and every value outside its declared range throw a UsageError naming the flag.
 */
export function parseFlags<T extends FlagSpecs>(argv: string[], specs: T, help: string, allowPositionals = false): ParsedFlags<T> | null {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(help.endsWith('\n') ? help : `${help}\n`);
    return null;
  }
  const options: Record<string, { type: 'string' | 'boolean'; multiple?: boolean }> = Object.create(null);
  for (const [name, spec] of Object.entries(specs)) {
    options[name] = { type: spec.kind === 'boolean' ? 'boolean' : 'string', ...('multiple' in spec && spec.multiple ? { multiple: true } : {}) };
  }
  let parsed: { values: Record<string, unknown>; positionals: string[] };
  try {
    parsed = parseArgs({ args: argv, options, strict: true, allowPositionals }) as never;
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const values: Record<string, unknown> = Object.create(null);
  const notes: string[] = [];
  for (const [name, spec] of Object.entries(specs)) {
    const raw = parsed.values[name];
    if (raw === undefined) continue;
    if (typeof raw === 'boolean') {
      values[name] = raw;
      continue;
    }
    const check = (text: string): string | number => {
      const { value, note } = checkFlag(name, spec, text);
      if (note) notes.push(note);
      return value;
    };
    values[name] = Array.isArray(raw) ? raw.map((text: string) => check(text)) : check(raw as string);
  }
  return { values: values as FlagValues<T>, positionals: parsed.positionals, notes };
}
