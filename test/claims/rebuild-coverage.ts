/** The check both papers' claim tests make of their rebuild table (lib/claims kst.ts, psi.ts) against the shipped ledger. */
import assert from 'node:assert/strict';
import type { ClaimEntry } from '../../lib/records/published-claims';

/**
 * Every rebuilt claim of the ledger has a rebuild, no claim that says it is not rebuildable matches
 * one, and every rebuild serves a rebuilt claim.
 */
export function checkRebuildsCoverLedger(claims: readonly ClaimEntry[], rebuilds: ReadonlyArray<readonly [RegExp, unknown]>): void {
  for (const c of claims) {
    const hits = rebuilds.filter(([re]) => re.test(c.id)).length;
    if (c.rebuilt) assert.ok(hits >= 1, `claim ${c.id}: no rebuild matches it`);
    else assert.equal(hits, 0, `claim ${c.id} says it is not rebuildable, but a rebuild matches it`);
  }
  for (const [re] of rebuilds) assert.ok(claims.some((c) => c.rebuilt && re.test(c.id)), `rebuild ${re} serves no claim`);
}
