import { InputError } from '../errors';
import { redactUrl } from './providers/endpoints';

/**
 * The resume fingerprint check: a store holding a run of another design is refused with one line that
 * names what differs (field path, old → new), never the whole settings table. String values pass
 * through redactUrl (a base URL with credentials is shown masked, as everywhere else).
 */

/** The fix `kstbench collect` names for a store of another design; a study passes its own (LifecycleOptions.otherDesignFix). */
export const NEW_OUT_DIR_FIX = 'use a new --out directory';

/** Differences shown in the message; the rest are counted. */
const SHOWN_DIFFERENCES = 3;
/** Longest value shown (a domain hash or a long prompt setting is cut, with an ellipsis). */
const SHOWN_VALUE_CHARS = 48;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function maskUrls(value: unknown): unknown {
  if (typeof value === 'string') return redactUrl(value);
  if (Array.isArray(value)) return value.map(maskUrls);
  if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskUrls(v)]));
  return value;
}

function shown(value: unknown): string {
  if (value === undefined) return '(none)';
  const text = JSON.stringify(maskUrls(value));
  return text.length > SHOWN_VALUE_CHARS ? `${text.slice(0, SHOWN_VALUE_CHARS - 1)}…` : text;
}

/**
 * The fields that differ between two fingerprints, as `path: old → new`, in key order (the earlier
 * run's keys first). Objects are compared field by field, so a changed base URL of one model is
 * `settings.<model>.base_url`, not the whole table; arrays and scalars as a whole.
 * @example
 * fingerprintDifferences({ seed: '42', settings: { 'm': { t: 0, u: 1 } } }, { seed: '42', settings: { 'm': { t: 1, u: 1 } } }); // => ['settings.m.t: 0 → 1']
 */
export function fingerprintDifferences(before: unknown, now: unknown): string[] {
  return differingFields(before, now, '').map((d) => d.text);
}

function differingFields(before: unknown, now: unknown, path: string): Array<{ path: string; text: string }> {
  if (isPlainObject(before) && isPlainObject(now)) {
    const keys = new Set([...Object.keys(before), ...Object.keys(now)]);
    return [...keys].flatMap((k) => differingFields(before[k], now[k], path === '' ? k : `${path}.${k}`));
  }
  if (JSON.stringify(before) === JSON.stringify(now)) return [];
  return [{ path, text: `${path}: ${shown(before)} → ${shown(now)}` }];
}

/** Refuses a resume whose design-defining fields differ from those of the earlier run in the same store. */
export function checkFingerprint(
  file: string,
  previous: Record<string, unknown> | null,
  now: Record<string, unknown>,
  fix: string = NEW_OUT_DIR_FIX,
): void {
  const before = previous?.fingerprint as Record<string, unknown> | undefined;
  if (!before) return;
  const fields = differingFields(before, now, '');
  if (fields.length === 0) return;
  const differences = fields.map((d) => d.text);
  const more = differences.length > SHOWN_DIFFERENCES ? `; and ${differences.length - SHOWN_DIFFERENCES} more` : '';
  throw new InputError(
    `${file}: this directory holds a run of another design (${differences.slice(0, SHOWN_DIFFERENCES).join('; ')}${more}); ` +
      `resume with the same parameters or ${fix}`,
    { file, item: fields[0]!.path },
  );
}
