import { InputError, describeZodIssues } from '../errors';
import { readJsonl } from '../io/jsonl';
import type { Condition } from '../conditions';
import type { Domain } from '../kst';
import { ReferenceIndex } from './reference';

export { ResponseLineSchema, type ResponseLine } from '../records/extracted';
import { ResponseLineSchema } from '../records/extracted';

/** A validated response with its state in canonical order and a key identifying the knowledge state. */
export interface ResponseRecord {
  line: number;
  runId: string;
  model: string;
  domain: string;
  condition: Condition;
  order: number;
  /** The mastered set, canonical IDs in canonical order. */
  state: string[];
  /** `domain` + state: identifies one knowledge state across models, conditions and orders. */
  stateKey: string;
  status: 'valid' | 'invalid' | 'missing';
  /** Canonical IDs in canonical order; null unless status is valid. */
  recommended: string[] | null;
  /** The outer fringe of `state`, canonical order. */
  reference: string[];
  simulated: boolean;
  /** Number of components in the domain (the worst-case symmetric difference of an invalid response). */
  componentCount: number;
}

/**
 * Reads and validates a responses JSONL file against the domains. Every problem is an InputError naming
 * the file, the line and the offending value: not JSON, a missing or mistyped field, an unknown domain or
 * component, a state that is not prerequisite-closed, a duplicated run ID or design cell, a duplicate ID
 * inside `state` or `recommended`, or `recommended` missing on a valid response.
 */
export function loadResponses(file: string, domains: readonly Domain[]): ResponseRecord[] {
  const { lines } = readJsonl(file);
  if (lines.length === 0) throw new InputError(`${file}: no responses (the file has no JSON lines)`, { file });
  return validateResponses(lines, domains, file);
}

export function validateResponses(
  lines: ReadonlyArray<{ line: number; value: unknown }>,
  domains: readonly Domain[],
  file = '<responses>',
): ResponseRecord[] {
  const references = new ReferenceIndex(domains);
  const seenRunIds = new Map<string, number>();
  const seenCells = new Map<string, number>();
  const records: ResponseRecord[] = [];
  for (const { line, value } of lines) {
    const where = `${file}:${line}`;
    const parsed = ResponseLineSchema.safeParse(value);
    if (!parsed.success) {
      throw new InputError(`${where}: ${describeZodIssues(parsed.error.issues)}`, { file, line });
    }
    const r = parsed.data;
    const domain = references.domain(r.domain);
    if (!domain) {
      throw new InputError(
        `${where}: unknown domain ${JSON.stringify(r.domain)} (known: ${references.domainIds().join(', ')})`,
        { file, line, item: r.domain },
      );
    }
    const state = references.canonicalSet(domain, r.state, (problem) => {
      throw new InputError(`${where}: state: ${problem}`, { file, line });
    });
    const closure = references.checkState(domain, state);
    if (!closure.ok) {
      throw new InputError(`${where}: state ${JSON.stringify(r.state)} ${closure.reason}`, { file, line });
    }
    let recommended: string[] | null = null;
    if (r.status === 'valid') {
      if (r.recommended === undefined || r.recommended === null) {
        throw new InputError(`${where}: recommended: required when status is "valid"`, { file, line });
      }
      recommended = references.canonicalSet(domain, r.recommended, (problem) => {
        throw new InputError(`${where}: recommended: ${problem}`, { file, line });
      });
    }
    const previousRun = seenRunIds.get(r.run_id);
    if (previousRun !== undefined) {
      throw new InputError(`${where}: run_id ${JSON.stringify(r.run_id)} already used on line ${previousRun}`, {
        file,
        line,
        item: r.run_id,
      });
    }
    seenRunIds.set(r.run_id, line);
    const stateKey = `${domain.id}:{${state.join(',')}}`;
    const cell = `${r.model}|${r.condition}|${stateKey}|order ${r.order}`;
    const previousCell = seenCells.get(cell);
    if (previousCell !== undefined) {
      throw new InputError(
        `${where}: a second response for model ${r.model}, ${r.condition}, ${stateKey}, order ${r.order} (first on line ${previousCell})`,
        { file, line },
      );
    }
    seenCells.set(cell, line);
    records.push({
      line,
      runId: r.run_id,
      model: r.model,
      domain: domain.id,
      condition: r.condition,
      order: r.order,
      state,
      stateKey,
      status: r.status,
      recommended,
      reference: references.outerFringe(domain, state),
      simulated: r.simulated === true,
      componentCount: domain.ids.length,
    });
  }
  return records;
}
