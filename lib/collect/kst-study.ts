import { InputError } from '../errors';
import { isCondition, type Condition } from '../conditions';
import { countStatesExact, DEFAULT_WORK_BUDGET, enumerateStates, presentationOrders, workBudget, type Domain, type Presentation } from '../kst';
import { MAX_DESIGN_CELLS, MAX_P3_STATES } from './caps';
import { buildPrompt, promptHash, positionsToIds, validateResponse } from '../prompting';
import { buildDesign, type DesignCell, type DomainStates } from './design';
import { ExtractedLineSchema, type ExtractedLine } from '../records/extracted';
import { KstFinalRecordSchema } from '../records/kst-final';
import { checkRecord, type CellOutcome, type Job, type ResultHandler } from './lifecycle';
import { parseModelSpec } from '../provider/contract';

/**
 * The KST benchmark as a job source for the generic engine ([KST-2026] §4.2–4.3): one job per design
 * cell; the prompt comes from lib/prompting under the cell's presentation order; the handler validates
 * the answer locally and maps temporary positions back to canonical IDs.
 */

export interface KstCellMeta {
  cell: DesignCell;
  domain: Domain;
  presentation: Presentation;
}

export interface KstDesignOptions {
  models: readonly string[];
  conditions: readonly string[];
  orders: number;
  seed: string;
  /** Optional documented sample of states per domain id; default every state (enumerateStates). */
  states?: ReadonlyMap<string, ReadonlyArray<ReadonlyArray<string>>>;
  /** How a refusal of an oversize design names what to change (default: `kstbench collect`'s flags). */
  limits?: DesignLimitAdvice;
}

/** What to change, as the caller's user gives it: `kstbench collect`'s flags or a study's manifest fields. */
export interface DesignLimitAdvice {
  /** Prefix naming where the design comes from (e.g. `study.json: design.states`). */
  states: string;
  /** Prefix naming where the conditions come from. */
  conditions: string;
  /** How to collect a sample of states instead of every state. */
  sample: string;
}

const COLLECT_ADVICE: DesignLimitAdvice = {
  states: 'the design',
  conditions: '--conditions',
  sample: 'collect a seeded sample of the states (kstbench sample --domain FILE --n N --out states.json, then collect --states states.json)',
};

/**
 * Refuses, before any state is enumerated, a design too big to build (more than MAX_DESIGN_CELLS
 * cells) or a P3 condition whose prompt would list more than MAX_P3_STATES states (it lists every
 * state of the domain, sampled or not). Counting is exact and cheap; enumerating such a space used
 * to take minutes and gigabytes before it ran out of memory or stack.
 */
export function checkDesignSize(domains: readonly Domain[], options: KstDesignOptions): void {
  const advice = options.limits ?? COLLECT_ADVICE;
  const counts = new Map<Domain, bigint>();
  const spaceOf = (d: Domain): bigint => {
    if (!counts.has(d)) counts.set(d, countStatesExact(d, workBudget(DEFAULT_WORK_BUDGET)));
    return counts.get(d)!;
  };
  if (options.conditions.includes('P3')) {
    for (const d of domains) {
      const n = spaceOf(d);
      if (n > BigInt(MAX_P3_STATES)) {
        throw new InputError(
          `${advice.conditions}: P3 lists every knowledge state in its prompt, and domain "${d.id}" has ${n} (at most ${MAX_P3_STATES}: about 18 tokens a state, beyond any catalogued context window); leave P3 out of the conditions (they apply to every domain), or split the domain`,
          { item: d.id },
        );
      }
    }
  }
  let states = 0n;
  for (const d of domains) {
    const sampled = options.states?.get(d.id);
    states += sampled ? BigInt(sampled.length) : spaceOf(d);
  }
  const cells = states * BigInt(options.conditions.length) * BigInt(options.orders) * BigInt(options.models.length);
  if (cells > BigInt(MAX_DESIGN_CELLS)) {
    throw new InputError(
      `${advice.states}: ${states} states × ${options.conditions.length} condition(s) × ${options.orders} order(s) × ${options.models.length} model(s) = ${cells} cells, over the ${MAX_DESIGN_CELLS} a collection holds in memory; ${advice.sample}`,
      { item: 'states' },
    );
  }
}

/** Builds the cells and their jobs. InputError for an unknown condition or model spec. */
export function kstJobs(domains: readonly Domain[], options: KstDesignOptions): Array<Job<KstCellMeta>> {
  for (const c of options.conditions) {
    if (!isCondition(c)) throw new InputError(`unknown condition ${JSON.stringify(c)} (expected P0, P1, P2 or P3)`, { item: c });
  }
  for (const m of options.models) parseModelSpec(m);
  checkDesignSize(domains, options);
  const byId = new Map(domains.map((d) => [d.id, d]));
  const presentations = new Map(domains.map((d) => [d.id, presentationOrders(d, options.orders)]));
  const domainStates: DomainStates[] = domains.map((d) => ({
    domain: d.id,
    states: options.states?.get(d.id) ?? enumerateStates(d),
  }));
  const cells = buildDesign(domainStates, options);
  return cells.map((cell) => {
    const domain = byId.get(cell.domain)!;
    const presentation = presentations.get(cell.domain)![cell.order - 1]!;
    return {
      runId: cell.runId,
      model: cell.model,
      meta: { cell, domain, presentation },
      request() {
        const prompt = buildPrompt(domain, cell.state, cell.condition as Condition, presentation);
        return {
          system: prompt.system,
          user: prompt.user,
          schemaName: prompt.schemaName,
          jsonSchema: prompt.jsonSchema,
          context: { domain, state: cell.state, condition: cell.condition, presentation },
        };
      },
    };
  });
}

/**
 * Builds the final record of one cell. Field meanings:
 * - status: `valid` (passed local validation), `invalid` (a model output that failed it: scored as
 *   incorrect, never retried), `missing` (no model output after retries: technical missingness);
 * - recommended: canonical IDs in canonical order (null unless valid); recommended_positions: as answered;
 * - prerequisites: P1 only, the model's inferred direct pairs [p, q] mapped to canonical IDs;
 * - cost_usd: estimate over all attempts of the cell (null when a price is unknown).
 */
export function kstFinalRecord(
  job: Job<KstCellMeta>,
  request: { system: string; user: string; schemaName: string },
  outcome: CellOutcome,
  simulated: boolean,
): Record<string, unknown> {
  const { cell, domain, presentation } = job.meta;
  const spec = parseModelSpec(cell.model);
  const common = {
    run_id: cell.runId,
    model: cell.model,
    provider: spec.provider,
    simulated,
    domain: cell.domain,
    state: cell.state,
    condition: cell.condition,
    order: cell.order,
    presentation_seed: presentation.seed,
    prompt: { system: request.system, user: request.user },
    prompt_sha256: promptHash(request),
    schema_name: request.schemaName,
  };
  if (outcome.kind === 'missing') {
    return {
      ...common,
      status: 'missing',
      reason: outcome.errorClass,
      detail: outcome.reason,
      raw_text: null,
      parsed: null,
      recommended: null,
      recommended_positions: null,
      prerequisites: null,
      model_version: null,
      finish_reason: null,
      usage: null,
      cost_usd: outcome.costUsd,
      cost_note: outcome.costNote ?? null,
      attempts: outcome.attempts,
    };
  }
  const { result } = outcome;
  const verdict = validateResponse(result.text, {
    condition: cell.condition as Condition,
    componentCount: presentation.positions.length,
    finishReason: result.finishReason,
    refusal: result.refusal,
    ...(result.tooLarge ? { tooLarge: result.tooLarge } : {}),
  });
  const valid = verdict.status === 'valid';
  return {
    ...common,
    status: verdict.status,
    reason: valid ? null : verdict.reason,
    detail: valid ? null : verdict.detail,
    raw_text: result.text,
    parsed: verdict.parsed ?? null,
    recommended: valid ? positionsToIds(presentation, verdict.positions, domain) : null,
    recommended_positions: valid ? verdict.positions : null,
    prerequisites:
      valid && verdict.prerequisites
        ? verdict.prerequisites.map(([p, q]) => [presentation.toId(p), presentation.toId(q)])
        : null,
    model_version: result.modelVersion,
    finish_reason: result.finishReason,
    refusal: result.refusal,
    usage: result.usage,
    cost_usd: outcome.costUsd,
    cost_note: outcome.costNote ?? null,
    attempts: outcome.attempts,
  };
}

export function kstResultHandler(isSimulated: (model: string) => boolean): ResultHandler<KstCellMeta> {
  return {
    finalRecord: (job, request, outcome) => kstFinalRecord(job, request, outcome, isSimulated(job.model)),
    recordSchema: KstFinalRecordSchema,
  };
}

export type { ExtractedLine };

/** One line of extracted.jsonl (lib/records/extracted.ts): the `kstbench analyze --responses` form plus `simulated`. */
export function extractedLine(record: Record<string, unknown>): ExtractedLine {
  const line = {
    run_id: record.run_id as string,
    model: record.model as string,
    domain: record.domain as string,
    condition: record.condition as string,
    order: record.order as number,
    state: record.state as string[],
    recommended: (record.recommended as string[] | null) ?? null,
    status: record.status as ExtractedLine['status'],
    simulated: record.simulated === true,
  };
  checkRecord(ExtractedLineSchema, line, 'extracted.jsonl line');
  return line as ExtractedLine;
}

/** The whole extracted.jsonl text, in the order of the final records. */
export function extractedText(records: ReadonlyArray<Record<string, unknown>>): string {
  return records.map((r) => `${JSON.stringify(extractedLine(r))}\n`).join('');
}
