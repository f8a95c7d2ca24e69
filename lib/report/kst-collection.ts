/**
 * Helpers for the collection notebook: the design in numbers, the presentation orders as a table, what
 * to collect (simulated by default, real models when the environment names them), a guarded reset of a
 * simulated output folder, and a byte-for-byte comparison of two corpora.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../errors';
import { buildDesign } from '../collect/design';
import { collectKst, type CollectParams } from '../collect/collect';
import type { CollectOutcome } from '../collect/runner';
import { parseModelSpec } from '../provider/contract';
import { paperModelStoodInFor, simulatedModelSpecs } from '../simulation/paper-models';
import { enumerateStates, outerFringe, presentationOrders, type Domain, type Presentation, type StateSample } from '../kst';
import { CONDITIONS, CONDITION_LABELS, type Condition } from '../conditions';
import { buildPrompt } from '../prompting';
import { stateLabel } from './kst-diagrams';
import { z } from 'zod';
import { readJsonFile } from '../io/json';

/** The six simulated respondents, one per model of the paper's panel, as `simulated:<profile>` specs. */
export const SIMULATED_MODEL_SPECS: readonly string[] = simulatedModelSpecs('kst');

/** Which paper model each simulated profile stands in for (`simulated:sim-a` → `Claude Fable 5`, …). */
export const SIMULATED_MIRRORS: Readonly<Record<string, string>> = Object.fromEntries(
  SIMULATED_MODEL_SPECS.map((spec) => [spec, paperModelStoodInFor(spec)!.paperModel]),
);

export interface DesignRow {
  domain: string;
  states: number;
  conditions: number;
  models: number;
  orders: number;
  cells: number;
}

/**
 * The fully crossed design per domain and in total, counted from the cells `buildDesign` actually
 * produces (every state, or the sampled ones, × condition × model × order). Study: 50 × 4 × 6 × 2 = 2,400.
 */
export function designRows(
  domains: readonly Domain[],
  options: { models: readonly string[]; conditions: readonly string[]; orders: number; seed: string; samples?: ReadonlyArray<Pick<StateSample, 'domain' | 'states'>> | null },
): DesignRow[] {
  // A sampled design (a study's `design.states.sample`) asks only the sampled states of each domain.
  const sampled = new Map((options.samples ?? []).map((s) => [s.domain, s.states]));
  const cells = buildDesign(
    domains.map((d) => ({ domain: d.id, states: sampled.get(d.id) ?? enumerateStates(d) })),
    options,
  );
  const rows = domains.map((d) => ({
    domain: d.id,
    states: new Set(cells.filter((c) => c.domain === d.id).map((c) => c.state.join(','))).size,
    conditions: options.conditions.length,
    models: options.models.length,
    orders: options.orders,
    cells: cells.filter((c) => c.domain === d.id).length,
  }));
  return [
    ...rows,
    {
      domain: 'Total',
      states: rows.reduce((s, r) => s + r.states, 0),
      conditions: options.conditions.length,
      models: options.models.length,
      orders: options.orders,
      cells: cells.length,
    },
  ];
}

/**
 * The presentation orders of a domain as a table: one row per temporary position with the canonical ID
 * shown there in each order, then one row with each order's SHA-256 seed.
 * Example row: `{ position: 1, 'order 1': 'SL4', 'order 2': 'SL1' }`.
 */
export function presentationRows(domain: Domain, count = 2): Array<Record<string, string | number>> {
  const orders = presentationOrders(domain, count);
  const rows: Array<Record<string, string | number>> = domain.ids.map((_, i) => {
    const row: Record<string, string | number> = { position: i + 1 };
    for (const o of orders) row[`order ${o.order}`] = o.positions[i]!;
    return row;
  });
  const seeds: Record<string, string | number> = { position: 'seed (SHA-256)' };
  for (const o of orders) seeds[`order ${o.order}`] = o.seed;
  return [...rows, seeds];
}

export interface CollectionPlan {
  /**
   * `simulated`: the study's models (by default the six simulated respondents), all simulated;
   * `study`: the study's models, some of them real; `environment`: the models named in KSTBENCH_MODELS.
   */
  source: 'simulated' | 'study' | 'environment';
  models: string[];
  outDir: string;
  baseUrl?: string;
  /** True when every model is simulated (deterministic, byte-identical re-runs). */
  simulated: boolean;
}

/**
 * What the collection notebook collects. Without `KSTBENCH_MODELS` (or with it blank): the study's
 * models (`dirs.models`; by default the six simulated ones) — into `simulatedOutDir` when all are
 * simulated, else into `environmentOutDir`. With it: the comma-separated `provider:model` specs it
 * names, into `environmentOutDir`, with `KSTBENCH_BASE_URL` as the base URL when set. Keys are never
 * read here (the providers read them from the environment). InputError for a malformed spec or a
 * model listed twice.
 */
export function collectionPlan(
  env: Readonly<Record<string, string | undefined>>,
  dirs: { simulatedOutDir: string; environmentOutDir: string; models?: readonly string[] },
): CollectionPlan {
  const listed = (env['KSTBENCH_MODELS'] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (listed.length === 0) {
    const models = [...(dirs.models ?? SIMULATED_MODEL_SPECS)];
    for (const spec of models) parseModelSpec(spec);
    const simulated = models.every((spec) => parseModelSpec(spec).provider === 'simulated');
    return { source: simulated ? 'simulated' : 'study', models, outDir: simulated ? dirs.simulatedOutDir : dirs.environmentOutDir, simulated };
  }
  for (const spec of listed) parseModelSpec(spec);
  const twice = listed.find((s, i) => listed.indexOf(s) !== i);
  if (twice) throw new InputError(`KSTBENCH_MODELS lists ${twice} twice`, { item: twice });
  const plan: CollectionPlan = {
    source: 'environment',
    models: listed,
    outDir: dirs.environmentOutDir,
    simulated: listed.every((s) => parseModelSpec(s).provider === 'simulated'),
  };
  const baseUrl = env['KSTBENCH_BASE_URL']?.trim();
  if (baseUrl) plan.baseUrl = baseUrl;
  return plan;
}

/**
 * A URL for display: user name, password, query and fragment removed (they may carry credentials).
 * Text that is not an http(s) URL is shown as `(not a URL)`: `localhost:11434` parses as scheme
 * "localhost:" and would otherwise be shown as the made-up `localhost://11434`.
 * @example
 * displayUrl('https://u:p@host/v1?key=x#frag'); // => 'https://host/v1'
 * displayUrl('127.0.0.1 port 11434'); // => '(not a URL)'
 * displayUrl('localhost:11434'); // => '(not a URL)'
 */
export function displayUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return '(not a URL)';
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return '(not a URL)';
  }
}

/**
 * Empties a folder written by a deterministic (all-simulated) collection so it can be regenerated
 * from scratch — resuming into it would append new run events and change run.json. Refuses (InputError)
 * a folder whose run.json is missing, unreadable or not `deterministic: true`: real collections are
 * resumed, never deleted. An absent folder is fine.
 */
export function resetSimulatedCollection(dir: string): void {
  if (!existsSync(dir)) return;
  const runFile = join(dir, 'run.json');
  let deterministic = false;
  try {
    deterministic = readJsonFile(runFile, z.object({ deterministic: z.unknown() })).deterministic === true;
  } catch {
    deterministic = false;
  }
  if (!deterministic) {
    throw new InputError(`${dir}: not a simulated collection (${runFile} missing or not deterministic); refusing to delete it`, { file: runFile });
  }
  rmSync(dir, { recursive: true, force: true });
}

/**
 * Notebook 02's collection cell: a simulated plan starts from an empty folder each time the cell runs,
 * so running the cell again gives the same files (a resume would append its run events to
 * attempts.jsonl and run.json, and section 6 would report "did not reproduce" for a collection that
 * did); a real collection is always resumed, never deleted.
 */
export async function notebookCollect(plan: Pick<CollectionPlan, 'source' | 'outDir'>, params: CollectParams): Promise<CollectOutcome> {
  if (plan.source === 'simulated') resetSimulatedCollection(plan.outDir);
  return collectKst(params);
}

export interface FileComparison {
  file: string;
  bytes: number | null;
  'bytes (reference)': number | null;
  sha256: string | null;
  'sha256 (reference)': string | null;
  identical: boolean;
}

function describeFile(path: string): { bytes: number; sha256: string } | null {
  if (!existsSync(path)) return null;
  const data = readFileSync(path);
  return { bytes: data.length, sha256: createHash('sha256').update(data).digest('hex') };
}

/**
 * Compares the files `names` in `dir` with those in `referenceDir`, byte for byte (size and SHA-256);
 * a file missing on either side is not identical.
 */
export function compareFiles(dir: string, referenceDir: string, names: readonly string[]): FileComparison[] {
  return names.map((file) => {
    const a = describeFile(join(dir, file));
    const b = describeFile(join(referenceDir, file));
    return {
      file,
      bytes: a?.bytes ?? null,
      'bytes (reference)': b?.bytes ?? null,
      sha256: a?.sha256 ?? null,
      'sha256 (reference)': b?.sha256 ?? null,
      identical: a !== null && b !== null && a.sha256 === b.sha256 && a.bytes === b.bytes,
    };
  });
}

/**
 * What a model is shown for one state under one presentation order, as notebook 02 prints it: the state
 * as positions with its reference answer (which no prompt contains), the system message (the same in
 * every condition), then the user message of each condition.
 */
export function promptPreviewText(domain: Domain, state: readonly string[], order: Presentation, conditions: readonly Condition[] = CONDITIONS): string {
  const prompts = conditions.map((c) => ({ condition: c, prompt: buildPrompt(domain, state, c, order) }));
  const positions = state.map((id) => order.toPosition(id)).sort((a, b) => a - b).join(', ');
  return [
    `state ${stateLabel(state)} = positions ${positions} under order ${order.order}; reference (never shown): ${stateLabel(outerFringe(domain, state))}\n`,
    `=== system message (all conditions) ===\n${prompts[0]!.prompt.system}\n`,
    ...prompts.map(({ condition, prompt }) => `=== ${condition} (${CONDITION_LABELS[condition]}) user message ===\n${prompt.user}\n`),
  ].join('\n');
}
