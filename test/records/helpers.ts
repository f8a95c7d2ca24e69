import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { z } from 'zod';
import { InputError } from '../../lib/errors';
import { checkJson } from '../../lib/io/json';

export const ROOT = join(__dirname, '..', '..');

/** Line `n` (1-based) of a shipped JSONL file under data/raw, parsed: a realistic record as the collector wrote it. */
export function shippedLine(relative: string, n = 1): Record<string, unknown> {
  const lines = readFileSync(join(ROOT, relative), 'utf8').split('\n').filter((l) => l.length > 0);
  const line = lines[n - 1];
  assert.ok(line !== undefined, `${relative} has no line ${n}`);
  return JSON.parse(line) as Record<string, unknown>;
}

/** The first shipped line satisfying `pick`. */
export function shippedLineWhere(relative: string, pick: (r: Record<string, unknown>) => boolean): Record<string, unknown> {
  const lines = readFileSync(join(ROOT, relative), 'utf8').split('\n').filter((l) => l.length > 0);
  const found = lines.map((l) => JSON.parse(l) as Record<string, unknown>).find(pick);
  assert.ok(found, `${relative}: no line matches`);
  return found;
}

/**
 * Asserts that `schema` refuses `value` through the project's one reader (checkJson), with the message
 * `rec.jsonl:7: <path>: …` naming the offending path.
 */
export function rejectsAt(schema: z.ZodType, value: unknown, path: string, reason?: RegExp): void {
  assert.throws(
    () => checkJson(value, 'rec.jsonl', schema, 7),
    (e: unknown) => {
      assert.ok(e instanceof InputError, `expected an InputError, got ${String(e)}`);
      assert.ok(e.message.startsWith(`rec.jsonl:7: ${path}: `), `message ${JSON.stringify(e.message)} should name ${path}`);
      if (reason) assert.match(e.message, reason);
      return true;
    },
  );
}

/** A copy of `record` with `changes` applied (undefined deletes the field). */
export function edit(record: Record<string, unknown>, changes: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = structuredClone(record);
  for (const [k, v] of Object.entries(changes)) {
    if (v === undefined) delete copy[k];
    else copy[k] = v;
  }
  return copy;
}
