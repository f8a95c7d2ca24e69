/**
 * Notebook 12 (12-psi-regeneration): the weak-case selection, the regeneration prompt's parts, and
 * Tables IV and V of [PSI-2026] beside the numbers the paper prints.
 */
import { InputError } from '../errors';
import type { RegenerationSummary, ShiftRow } from '../psi/aggregate';
import { measureLabel, numericCell, paperCell as paper, percentCell, type PublishedPsi } from './psi-tables';

/**
 * The weak-case selection per model beside the paper's 4 / 23 / 22 / 13 (total 62 of 120 defective
 * cases): selected per model (with the cases considered per model when the selection reports them,
 * else null), then a total row with the number of cases considered.
 */
export function selectionComparison(
  selection: {
    perModel: Readonly<Record<string, number>>;
    considered: number;
    selected: readonly unknown[];
    consideredPerModel?: Readonly<Record<string, number>>;
  },
  published: PublishedPsi,
  mirrors: Readonly<Record<string, string>>,
) {
  const rows: Array<Record<string, string | number | null>> = Object.keys(selection.perModel)
    .sort()
    .map((model) => {
      const pm = mirrors[model];
      return {
        model,
        'paper model': pm ?? null,
        selected: selection.perModel[model]!,
        'selected (paper)': paper(pm === undefined ? undefined : published.table4.selected_per_model[pm]),
        considered: selection.consideredPerModel?.[model] ?? null,
      };
    });
  rows.push({
    model: 'total',
    'paper model': 'total',
    selected: selection.selected.length,
    'selected (paper)': published.table4.selected,
    considered: selection.considered,
  });
  return rows;
}

/**
 * Table IV: cases, improved (PSI strictly higher after), rate and mean PSI gain, overall and per
 * model, beside the paper's 62 cases (4 / 23 / 22 / 13), 51 improved = 82.3 %, mean gain +0.049.
 */
export function table4Comparison(
  results: { overall: RegenerationSummary; perModel: Array<{ model: string } & RegenerationSummary> },
  published: PublishedPsi,
  mirrors: Readonly<Record<string, string>>,
) {
  const t = published.table4;
  const row = (model: string, pm: string | null, s: RegenerationSummary, overall: boolean) => ({
    model,
    'paper model': pm,
    cases: s.cases,
    'cases (paper)': paper(overall ? t.selected : pm === null ? undefined : t.selected_per_model[pm]),
    improved: s.improved,
    'improved (paper)': paper(overall ? t.improved : undefined),
    'rate %': s.cases === 0 ? null : percentCell(s.rate),
    'rate % (paper)': paper(overall ? t.improved_rate : undefined),
    'mean gain': numericCell(s.meanGain),
    'mean gain (paper)': paper(overall ? t.mean_gain : undefined),
  });
  return [
    row('all models', 'all models', results.overall, true),
    ...results.perModel.map((r) => row(r.model, mirrors[r.model] ?? null, r, false)),
  ];
}

/**
 * Table V: mean PSI and sub-scores of the regenerated cases before and after regeneration, beside the
 * paper's S_SD 0.073 → 0.345 (+0.272) and changes KD +0.039, TV −0.034, RA −0.055, EF 0. The PSI row's
 * paper change is the mean gain +0.049 of Table IV: mean(after) − mean(before) over the same cases is
 * the mean of the per-case gains.
 */
export function table5Comparison(shifts: readonly ShiftRow[], published: PublishedPsi) {
  const t = published.table5;
  return shifts.map((s) => ({
    measure: measureLabel(s.measure),
    before: numericCell(s.before),
    'before (paper)': paper(s.measure === 'sd' ? t.sd_before : undefined),
    after: numericCell(s.after),
    'after (paper)': paper(s.measure === 'sd' ? t.sd_after : undefined),
    change: numericCell(s.change),
    'change (paper)': paper(s.measure === 'psi' ? published.table4.mean_gain : t.delta[s.measure]),
  }));
}

/**
 * Splits a regeneration prompt's user message (lib/psi/regeneration.ts) into its five parts at the
 * "## (a)" … "## (e)" headings. InputError when a part is missing or out of order.
 */
export function promptParts(user: string): Array<{ part: 'a' | 'b' | 'c' | 'd' | 'e'; heading: string; text: string }> {
  const heads = [...user.matchAll(/^## \(([a-e])\) (.*)$/gm)];
  const letters = heads.map((h) => h[1]).join('');
  if (letters !== 'abcde') throw new InputError(`regeneration prompt: expected parts (a)–(e) in order, found "${letters}"`);
  return heads.map((h, i) => {
    const start = h.index! + h[0].length;
    const end = i + 1 < heads.length ? heads[i + 1]!.index! : user.length;
    return { part: h[1] as 'a' | 'b' | 'c' | 'd' | 'e', heading: h[2]!.trim(), text: user.slice(start, end).trim() };
  });
}

/**
 * A regeneration prompt's user message as notebook 12 prints it: each part (a)–(e) under a
 * `=== (x) heading ===` line, parts separated by a blank line. InputError as `promptParts`.
 */
export function promptPartsText(user: string): string {
  return promptParts(user).map((p) => `\n=== (${p.part}) ${p.heading} ===\n${p.text}`).join('\n');
}

/**
 * Compares a weak-case selection with the cases actually regenerated (round-2 records' parents):
 * how many of each, how many in both, and the run_ids found in only one of them (sorted).
 */
export function selectionVsRegenerated(selectedRunIds: readonly string[], round2: ReadonlyArray<{ parent_run_id?: string }>) {
  const selected = new Set(selectedRunIds);
  const regenerated = new Set(round2.map((r) => r.parent_run_id).filter((x): x is string => x !== undefined));
  return {
    selected: selected.size,
    regenerated: regenerated.size,
    both: [...selected].filter((id) => regenerated.has(id)).length,
    selectedOnly: [...selected].filter((id) => !regenerated.has(id)).sort(),
    regeneratedOnly: [...regenerated].filter((id) => !selected.has(id)).sort(),
  };
}
