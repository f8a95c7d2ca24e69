import { InputError } from '../errors';

/**
 * Names from input (items, parameters, CSV headers) are never used as keys of ordinary objects: an
 * item called `__proto__` assigned into `{}` sets the object's prototype and vanishes, and one called
 * `constructor` or `toString` finds Object.prototype's method where a list was expected. Keyed data
 * goes into Maps, or into objects made by `keyedObject` (own, defined properties); a `__proto__` key that
 * zod would drop is refused by name (`refuseProtoKey`).
 */

/** The names an ordinary object inherits or treats specially (`__proto__`, `constructor`, `toString`, …). */
export const PROTOTYPE_NAMES: ReadonlySet<string> = new Set([...Object.getOwnPropertyNames(Object.prototype), 'prototype']);

/** True for a name that an ordinary object would not hold as a plain key. */
export function isPrototypeName(name: string): boolean {
  return PROTOTYPE_NAMES.has(name);
}

/**
 * An object holding `entries` as own properties, defined rather than assigned, so `__proto__` is an
 * ordinary key (assignment would set the prototype) and `constructor` an own value that shadows
 * Object's. Read only the keys it was given (or check `Object.hasOwn`): accumulate in a Map first.
 */
export function keyedObject<V>(entries: Iterable<readonly [string, V]> = []): Record<string, V> {
  const out: Record<string, V> = {};
  for (const [key, value] of entries) Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  return out;
}

/**
 * Refuses a JSON object (read with JSON.parse, which keeps `"__proto__"` as an own key) that has a
 * `__proto__` key where keys are names: zod's records copy into `{}`, where that key would set the
 * prototype and vanish. `__proto__` is never a valid ID, so it is refused by name. `where` prefixes the message.
 */
export function refuseProtoKey(value: unknown, where: string): void {
  if (typeof value === 'object' && value !== null && Object.hasOwn(value, '__proto__')) {
    throw new InputError(`${where} names "__proto__", which is not a valid ID (IDs start with a letter or digit)`);
  }
}
