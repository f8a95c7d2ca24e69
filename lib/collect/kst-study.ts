import { InputError } from '../errors';
import { isCondition, type Condition } from '../conditions';
import { enumerateStates, presentationOrders, type Domain, type Presentation } from '../kst';
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
}

/** Builds the cells and their jobs. InputError for an unknown condition or model spec. */
export function kstJobs(domains: readonly Domain[], options: KstDesignOptions): Array<Job<KstCellMeta>> {
  for (const c of options.conditions) {
    if (!isCondition(c)) throw new InputError(`unknown condition ${JSON.stringify(c)} (expected P0, P1, P2 or P3)`, { item: c });
  }
  for (const m of options.models) parseModelSpec(m);
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
