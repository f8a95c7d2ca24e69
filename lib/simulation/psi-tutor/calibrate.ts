/**
 * Calibration report of the simulated PSI tutors (lib/simulation/psi-tutor/README.md).
 *
 *   node --import tsx lib/simulation/psi-tutor/calibrate.ts [--seed N] [--seeds N,N,...] [--threshold X]
 *                                              [--course DIR] [--published FILE] [--json FILE]
 *
 * Runs the whole simulated PSI study in memory (lib/simulation/psi-tutor/study.ts: round 1, weak-case
 * selection, PSI-guided round 2, all scored with lib/psi) and prints the achieved numbers beside the
 * published ones (data/published/psi-2026.json). `--seed` (default 1, the shipped corpus's seed) is the
 * realised corpus; `--seeds` adds a column with the mean over several seeds, i.e. what the habits imply
 * rather than what one draw happened to give — a habit change should improve both columns.
 * Deterministic: the same arguments print the same bytes. Tuning is done by editing
 * lib/simulation/psi-tutor/profiles.ts and re-running this script; scripts/fit-psi.ts searches the
 * habits on the stated objective J (lib/simulation/psi-tutor/fit.ts) and prints J before and after.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { decodeInputText } from '../../io/read';
import { parseJsonFile, writeFileAtomic } from '../../io';
import { loadPsiCourse } from '../../psi/schema';
import { simulatePsiStudy, summarisePsiStudy, type PsiStudySummary } from './study';

interface Row {
  measure: string;
  published: number | null;
  achieved: number;
  seedsMean?: number;
}

const MODELS = ['ChatGPT', 'Qwen 3', 'Gemma 4', 'Gemini'] as const;
const BLOOM = ['Remember', 'Understand', 'Apply', 'Analyze'];

function arg(argv: string[], name: string): string | undefined {
  const i = argv.indexOf(`--${name}`);
  if (i < 0) return undefined;
  const v = argv[i + 1];
  if (v === undefined || v.startsWith('--')) throw new Error(`--${name} needs a value`);
  return v;
}

/** Flattens a summary into named measures, in the order of the paper's tables. */
function measures(s: PsiStudySummary): Array<[string, number]> {
  const out: Array<[string, number]> = [];
  for (const m of MODELS) out.push([`T1 PSI standard ${m}`, s.psi[m]!]);
  for (const m of MODELS) out.push([`T1 SD standard ${m}`, s.sd[m]!]);
  out.push(['T1 CL (lowest model mean)', s.clMin], ['T1 EF', s.ef]);
  for (let l = 1; l <= 4; l++) out.push([`F1 PSI ${BLOOM[l - 1]}`, s.bloom[l] ?? Number.NaN]);
  for (const k of ['psi', 'kd', 'tv', 'sd', 'ra', 'cl', 'ef'] as const) out.push([`T3 defective Δ${k.toUpperCase()}`, s.defectiveDelta[k]]);
  out.push(['T4 selected', s.selected]);
  for (const m of MODELS) out.push([`T4 selected ${m}`, s.selectedPerModel[m] ?? 0]);
  out.push(['T4 improved', s.improved], ['T4 improved %', 100 * s.improvedRate], ['T4 mean gain', s.meanGain]);
  out.push(['T5 SD before', s.sdBefore], ['T5 SD after', s.sdAfter]);
  for (const k of ['psi', 'kd', 'tv', 'sd', 'ra', 'cl', 'ef'] as const) out.push([`T5 regeneration Δ${k.toUpperCase()}`, s.regenerationDelta[k]]);
  return out;
}

/** The published value of a measure, or null when the paper does not print it. */
function published(p: any, measure: string): number | null {
  const t1 = /^T1 PSI standard (.+)$/.exec(measure);
  if (t1) return p.table1.psi[t1[1]!] ?? null;
  const sd = /^T1 SD standard (.+)$/.exec(measure);
  if (sd) return p.table1.sd[sd[1]!] ?? null;
  const sel = /^T4 selected (.+)$/.exec(measure);
  if (sel) return p.table4.selected_per_model[sel[1]!] ?? null;
  const d3 = /^T3 defective Δ(\w+)$/.exec(measure);
  if (d3) return d3[1] === 'PSI' ? p.table2_3.delta_psi : (p.table2_3.delta[d3[1]!.toLowerCase()] ?? null);
  const d5 = /^T5 regeneration Δ(\w+)$/.exec(measure);
  if (d5) return p.table5.delta[d5[1]!.toLowerCase()] ?? null;
  const fixed: Record<string, number | null> = {
    'T1 CL (lowest model mean)': p.table1.cl_min,
    'T1 EF': p.table1.ef_all_models,
    'F1 PSI Remember': p.figure1.cross_model_mean.remember,
    'F1 PSI Analyze': p.figure1.cross_model_mean.analyze,
    'T4 selected': p.table4.selected,
    'T4 improved': p.table4.improved,
    'T4 improved %': p.table4.improved_rate,
    'T4 mean gain': p.table4.mean_gain,
    'T5 SD before': p.table5.sd_before,
    'T5 SD after': p.table5.sd_after,
  };
  return fixed[measure] ?? null;
}

function fmt(x: number | null | undefined, measure: string): string {
  if (x === null || x === undefined || Number.isNaN(x)) return '—';
  if (/selected|improved$/.test(measure)) return String(Math.round(x * 100) / 100);
  if (/%$/.test(measure)) return x.toFixed(1);
  return x.toFixed(3);
}

function main(argv: string[]): void {
  const course = loadPsiCourse(arg(argv, 'course') ?? 'data/raw/psi');
  const publishedFile = arg(argv, 'published') ?? 'data/published/psi-2026.json';
  const pub = parseJsonFile(decodeInputText(readFileSync(publishedFile), publishedFile), publishedFile, z.looseObject({}));
  const seed = arg(argv, 'seed') ?? '1';
  const thresholdArg = arg(argv, 'threshold');
  const threshold = thresholdArg === undefined ? undefined : Number(thresholdArg);
  if (threshold !== undefined && !Number.isFinite(threshold)) throw new Error(`--threshold must be a number, got ${thresholdArg}`);
  const seeds = arg(argv, 'seeds')?.split(',').map((s) => s.trim()).filter((s) => s !== '');

  const run = (s: string) => summarisePsiStudy(course, simulatePsiStudy(course, { seed: s, threshold }));
  const main = measures(run(seed));
  const rows: Row[] = main.map(([measure, achieved]) => ({ measure, published: published(pub, measure), achieved }));
  if (seeds && seeds.length > 0) {
    const all = seeds.map((s) => measures(run(s)));
    rows.forEach((row, i) => {
      row.seedsMean = all.reduce((acc, m) => acc + m[i]![1], 0) / all.length;
    });
  }
  const header = ['measure', 'published', `seed ${seed}`, ...(seeds ? [`mean of ${seeds.length} seeds`] : [])];
  const lines = rows.map((r) => [r.measure, fmt(r.published, r.measure), fmt(r.achieved, r.measure), ...(seeds ? [fmt(r.seedsMean, r.measure)] : [])]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const pad = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  process.stdout.write(`${[pad(header), pad(widths.map((w) => '-'.repeat(w))), ...lines.map(pad)].join('\n')}\n`);
  const json = arg(argv, 'json');
  if (json) writeFileAtomic(json, `${JSON.stringify({ seed, seeds: seeds ?? null, threshold: threshold ?? null, rows }, null, 2)}\n`);
}

if (require.main === module) main(process.argv.slice(2));
