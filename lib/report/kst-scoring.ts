/**
 * Helpers for the scoring notebook: validity counts with invalid reasons, worked examples of the
 * position → canonical ID mapping, the scored-responses file, and the provenance block that
 * `kstbench analyze` writes into analysis.json (so the notebook's outputs match the CLI's byte for byte).
 */
import { InputError } from '../errors';
export { analysisProvenance } from '../analysis/provenance';
import type { ScoredRecord } from '../analysis/score';
import { presentation, type Domain } from '../kst';
import { stateLabel } from './kst-diagrams';

/** The fields of a collector final record (responses.jsonl) used here. */
export interface FinalRecordLike {
  run_id: string;
  domain: string;
  condition: string;
  order: number;
  state: string[];
  status: 'valid' | 'invalid' | 'missing';
  reason?: string | null;
  raw_text?: string | null;
  recommended?: string[] | null;
  recommended_positions?: number[] | null;
}

const STATUS_ORDER = { valid: 0, invalid: 1, missing: 2 } as const;

/**
 * Number of records per status and reason (valid first, then invalid and missing by reason), with the
 * share of all records.
 * @example
 * statusCounts([{ status: 'missing', reason: null }, { status: 'valid', reason: '' }, { status: 'invalid', reason: 'unknown_id' }, { status: 'valid', reason: '' }] as any); // => [{ status: 'valid', reason: '', n: 2, share: 0.5 }, { status: 'invalid', reason: 'unknown_id', n: 1, share: 0.25 }, { status: 'missing', reason: '(none)', n: 1, share: 0.25 }]
 */
export function statusCounts(records: ReadonlyArray<Pick<FinalRecordLike, 'status' | 'reason'>>): Array<{ status: string; reason: string; n: number; share: number }> {
  const counts = new Map<string, { status: FinalRecordLike['status']; reason: string; n: number }>();
  for (const r of records) {
    const reason = r.status === 'valid' ? '' : (r.reason ?? '(none)');
    const key = `${r.status}\u0000${reason}`;
    const c = counts.get(key) ?? { status: r.status, reason, n: 0 };
    c.n += 1;
    counts.set(key, c);
  }
  return [...counts.values()]
    .sort((a, b) => STATUS_ORDER[a.status] - STATUS_ORDER[b.status] || (a.reason < b.reason ? -1 : a.reason > b.reason ? 1 : 0))
    .map((c) => ({ status: c.status, reason: c.reason, n: c.n, share: c.n / records.length }));
}

export interface MappingExample {
  run_id: string;
  condition: string;
  order: number;
  state: string;
  status: string;
  raw_text: string;
  positions: string;
  /** Each position with the canonical ID the presentation puts there, recomputed here. */
  mapping: string;
  /** The collector's canonical recommendation. */
  recommended: string;
  /** Does the recomputed mapping give the collector's recommendation? */
  agrees: boolean | null;
}

/**
 * Worked examples of the mapping from a response to canonical IDs: the first valid record of each
 * condition (in file order) and the first invalid one. For each, the positions the model returned are
 * mapped again through the domain's presentation order (`presentation(domain, order).toId`) and
 * compared with the collector's recorded `recommended`. `maxText` shortens the raw text for display.
 */
export function mappingExamples(records: readonly FinalRecordLike[], domains: readonly Domain[], options: { maxText?: number } = {}): MappingExample[] {
  const maxText = options.maxText ?? 200;
  const picked: FinalRecordLike[] = [];
  for (const condition of ['P0', 'P1', 'P2', 'P3']) {
    const r = records.find((x) => x.condition === condition && x.status === 'valid');
    if (r) picked.push(r);
  }
  const invalid = records.find((x) => x.status === 'invalid');
  if (invalid) picked.push(invalid);
  return picked.map((r) => {
    const domain = domains.find((d) => d.id === r.domain);
    if (!domain) throw new InputError(`${r.run_id}: unknown domain ${r.domain}`, { item: r.run_id });
    const p = presentation(domain, r.order);
    const positions = r.recommended_positions ?? null;
    const ids = positions?.map((x) => p.toId(x)) ?? null;
    const canonical = ids ? [...ids].sort((a, b) => domain.index.get(a)! - domain.index.get(b)!) : null;
    const text = r.raw_text ?? '';
    return {
      run_id: r.run_id,
      condition: r.condition,
      order: r.order,
      state: stateLabel(r.state),
      status: r.status === 'invalid' ? `invalid (${r.reason ?? 'no reason'})` : r.status,
      raw_text: text.length > maxText ? `${text.slice(0, maxText)}…` : text,
      positions: positions ? positions.join(', ') : '',
      mapping: positions && ids ? positions.map((x, i) => `${x}→${ids[i]}`).join(', ') : '',
      recommended: r.recommended ? stateLabel(r.recommended) : '',
      agrees: canonical && r.recommended ? canonical.join(',') === r.recommended.join(',') : null,
    };
  });
}

/**
 * The scored responses as JSON Lines, one line per scored (valid or invalid) response in input order:
 * the cell, its status, recommendation and reference (outer fringe), and the five response-level scores.
 */
export function scoredResponsesText(scored: readonly ScoredRecord[]): string {
  return scored
    .map(
      (r) =>
        `${JSON.stringify({
          run_id: r.runId,
          model: r.model,
          domain: r.domain,
          condition: r.condition,
          order: r.order,
          state: r.state,
          status: r.status,
          recommended: r.recommended,
          reference: r.reference,
          exact: r.scores.exact,
          precision: r.scores.precision,
          recall: r.scores.recall,
          f1: r.scores.f1,
          jaccard: r.scores.jaccard,
          simulated: r.simulated,
        })}\n`,
    )
    .join('');
}


/**
 * Valid / invalid / missing counts beside the paper's (§4.3: every one of the 2,400 responses valid,
 * none truncated, no technical missingness). `published` is the `collection` entry of the published file.
 */
export function validityComparison(
  records: ReadonlyArray<Pick<FinalRecordLike, 'status' | 'reason'>>,
  published: { valid: number; truncated: number; missing: number },
): Array<{ outcome: string; n: number; 'n (paper)': number | null }> {
  const count = (f: (r: Pick<FinalRecordLike, 'status' | 'reason'>) => boolean) => records.filter(f).length;
  return [
    { outcome: 'responses', n: records.length, 'n (paper)': published.valid + published.missing },
    { outcome: 'valid', n: count((r) => r.status === 'valid'), 'n (paper)': published.valid },
    { outcome: 'invalid (any reason)', n: count((r) => r.status === 'invalid'), 'n (paper)': 0 },
    { outcome: 'invalid: truncated', n: count((r) => r.status === 'invalid' && r.reason === 'truncated'), 'n (paper)': published.truncated },
    { outcome: 'missing (transport failure)', n: count((r) => r.status === 'missing'), 'n (paper)': published.missing },
  ];
}

/**
 * The first `count` scored responses as table rows for the scoring notebook: the cell, the
 * recommendation ("(invalid)" for an invalid answer) and reference as sets, and the five scores.
 */
export function scoredPreviewRows(scored: readonly ScoredRecord[], count: number): Array<Record<string, string | number>> {
  return scored.slice(0, count).map((r) => ({
    run_id: r.runId,
    model: r.model,
    condition: r.condition,
    state: stateLabel(r.state),
    recommended: r.recommended ? stateLabel(r.recommended) : '(invalid)',
    reference: stateLabel(r.reference),
    exact: r.scores.exact,
    precision: r.scores.precision,
    recall: r.scores.recall,
    f1: r.scores.f1,
    jaccard: r.scores.jaccard,
  }));
}

/**
 * One line per file written, with its size in bytes (UTF-8), as the notebook lists its outputs.
 * @example
 * writtenFilesText([{ path: 'out/a.csv', data: 'x,é\n' }]); // => "out/a.csv  5 bytes"
 */
export function writtenFilesText(files: ReadonlyArray<{ path: string; data: string }>): string {
  return files.map((f) => `${f.path}  ${Buffer.byteLength(f.data)} bytes`).join('\n');
}
