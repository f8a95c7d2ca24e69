import assert from 'node:assert/strict';
import { InputError } from '../../lib/errors';
import { buildDomain, type Domain } from '../../lib/kst';
import { exportStructure, importStructure, itemIdsFromNames, readItemDescriptions, type MatrixFormat } from '../../lib/kst-io';

/**
 * Hand-made fixtures for the kstIO formats. The structure throughout is "two routes" on items
 * a b c d: c after a OR after b, d after c. Basis (rows in the order kstbench writes: by size, then
 * lexicographically):
 *   {a}      1000   a is minimal here → 1
 *   {b}      0100
 *   {a,c}    2010   contains a, but {a} lies inside → a is 2; minimal for c → 1
 *   {b,c}    0210
 *   {a,c,d}  2021   a is 2 ({a} inside), c is 2 ({a,c} inside), d is 1
 *   {b,c,d}  0221
 * Space: 10 states (see test/kst/basis.test.ts).
 */
export const BASIS_ROWS = ['1000', '0100', '2010', '0210', '2021', '0221'];
export const SPACE_ROWS = ['0000', '1000', '0100', '1100', '1010', '0110', '1110', '1011', '0111', '1111'];

export const items = readItemDescriptions('id,description\na,task a\nb,task b\nc,"task c, two routes"\nd,task d\n', 'items.csv');

export function load(text: string, file: string, options: Partial<Parameters<typeof importStructure>[2]> = {}): Domain {
  return buildDomain(importStructure(text, file, { id: 'two-routes', items, ...options }), file);
}

export function exported(domain: Domain, what: Parameters<typeof exportStructure>[1], format: MatrixFormat, comment?: string): string {
  let out = '';
  exportStructure(domain, what, format, (c) => (out += typeof c === 'string' ? c : Buffer.from(c).toString('latin1')), comment);
  return out;
}

export function refuses(fn: () => unknown, pattern: RegExp): void {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof InputError, String(err));
    assert.match(err.message, pattern);
    return true;
  });
}

export const srbtBasis = `#SRBT v2.0 basis\n4\n6\n# a hand-made basis\n${BASIS_ROWS.join('\n')}\n`;

/** Seeded random item names: spaces, quotes, unicode, prefixes of one another, other items' IDs. */
export function randomNames(rng: () => number): string[] {
  const pieces = ['a', 'b', 'I', '1', ' ', '"', "'", ',', 'é', 'Ö', 'ß', 'Ω', '\u00a0', '-', '_', '.', '数', 'x y', '🙂', 'Item'];
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)]!;
  const n = 3 + Math.floor(rng() * 5);
  const names: string[] = [];
  while (names.length < n) {
    let name: string;
    const r = rng();
    if (names.length > 0 && r < 0.2) {
      // The ID another item's name maps to ("a b" → a_b), or a positional one (I3), as a name of its own.
      const mapped = itemIdsFromNames(names).ids;
      name = rng() < 0.5 ? pick(mapped) : `I${1 + Math.floor(rng() * n)}`;
    } else {
      name = names.length > 0 && r < 0.5 ? pick(names) : '';
      const len = 1 + Math.floor(rng() * 3);
      for (let k = 0; k < len; k++) name += pick(pieces);
    }
    if (name.trim() !== '' && !names.includes(name)) names.push(name);
  }
  return names;
}

/** The two-route structure on the first three names, the rest free: c after a OR after b. */
export function twoRouteCsv(names: readonly string[]): string {
  const n = names.length;
  const row = (set: number[]): string => names.map((_, j) => (set.includes(j) ? 1 : 0)).join(',');
  const basis = [[0], [1], [0, 2], [1, 2], ...Array.from({ length: n - 3 }, (_, k) => [k + 3])];
  return `${names.map((x) => `"${x.replace(/"/g, '""')}"`).join(',')}\n${basis.map(row).join('\n')}\n`;
}
