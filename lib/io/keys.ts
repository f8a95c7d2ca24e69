import { z } from 'zod';

/**
 * Names from input (items, parameters, CSV headers) are never used as keys of ordinary objects: an
 * item called `__proto__` assigned into `{}` sets the object's prototype and vanishes, and one called
 * `constructor` or `toString` finds Object.prototype's method where a list was expected. Keyed data
 * goes into Maps or into objects made by `keyedObject` (no prototype: every name is an ordinary key).
 */

/** The names an ordinary object inherits or treats specially (`__proto__`, `constructor`, `toString`, …). */
export const PROTOTYPE_NAMES: ReadonlySet<string> = new Set([...Object.getOwnPropertyNames(Object.prototype), 'prototype']);

/** True for a name that an ordinary object would not hold as a plain key. */
export function isPrototypeName(name: string): boolean {
  return PROTOTYPE_NAMES.has(name);
}

/** An object with no prototype holding `entries`: `__proto__` and `constructor` are ordinary keys in it. */
export function keyedObject<V>(entries: Iterable<readonly [string, V]> = []): Record<string, V> {
  const out = Object.create(null) as Record<string, V>;
  for (const [key, value] of entries) Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  return out;
}

/**
 * A zod schema for a JSON object used as a record (`{ "<name>": value }`) whose keys come from input:
 * like `z.record(z.string(), value)`, but the result is a `keyedObject`, so a key `__proto__` is kept
 * (zod's record copies into `{}`, where it would set the prototype and disappear). Issues keep their
 * path (`surmise.A[0]`).
 */
export function keyedRecord<S extends z.ZodType>(value: S) {
  return z.unknown().transform((input, ctx): Record<string, z.output<S>> => {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) {
      ctx.addIssue({ code: 'custom', message: `expected an object, received ${Array.isArray(input) ? 'array' : input === null ? 'null' : typeof input}` });
      return z.NEVER;
    }
    const entries: Array<[string, z.output<S>]> = [];
    for (const key of Object.keys(input)) {
      const parsed = value.safeParse((input as Record<string, unknown>)[key]);
      if (!parsed.success) {
        for (const issue of parsed.error.issues) ctx.addIssue({ ...issue, code: 'custom', message: issue.message, path: [key, ...issue.path] } as never);
        continue;
      }
      entries.push([key, parsed.data]);
    }
    return keyedObject(entries);
  });
}
