import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { z } from 'zod';
import { InputError, describeZodIssues } from '../errors';
import { readJsonl } from '../io';
import { appendLine } from './store';
import type { Redactor } from './redact';

/**
 * The batch ledger `batches.jsonl` in the collection directory: what `--batch` submitted, under which
 * custom_ids, and which batches have been collected. It is what makes batch mode resumable: a re-run
 * polls every submitted-but-uncollected batch instead of submitting its cells again.
 *
 * Lines (append-only, one fsync'ed write each):
 * - `{"type":"submitting", seq, model, requests, at}` — written BEFORE the provider is asked to create
 *   a batch. A `submitting` line without its `submitted` line means the process died during the
 *   submission: the provider may or may not have created that batch (it cannot be found again), so
 *   the run logs `batch_submission_unconfirmed` and sends the cells anew.
 * - `{"type":"submit_failed", seq, error_class, created: false|"unknown"}` — the provider refused the
 *   submission (its retries ran out); `created: "unknown"` after a timeout or a dropped connection,
 *   when the batch may exist all the same (then it stays listed as unconfirmed).
 * - `{"type":"submitted", seq, batch_id, model, provider, submitted_at, items: [{run_id, custom_id, attempt}]}`
 * - `{"type":"collected", batch_id, state, provider_status, counts, retry: [run_id…], collected_at}` —
 *   written after every result of the batch is on disk (attempt lines, final records); `retry` lists
 *   the cells whose failed item is to be sent again in a follow-up batch.
 */

export const BatchItemSchema = z.object({ run_id: z.string(), custom_id: z.string(), attempt: z.number().int().min(1) });
export type BatchItem = z.infer<typeof BatchItemSchema>;

const SubmittingSchema = z.looseObject({ type: z.literal('submitting'), seq: z.number().int(), model: z.string(), requests: z.number().int() });
const SubmittedSchema = z.looseObject({
  type: z.literal('submitted'),
  seq: z.number().int(),
  batch_id: z.string().min(1),
  model: z.string(),
  provider: z.string(),
  submitted_at: z.string().nullable(),
  items: z.array(BatchItemSchema).min(1),
});
const SubmitFailedSchema = z.looseObject({
  type: z.literal('submit_failed'),
  seq: z.number().int(),
  error_class: z.string(),
  created: z.union([z.literal(false), z.literal('unknown')]),
});
const CollectedSchema = z.looseObject({
  type: z.literal('collected'),
  batch_id: z.string().min(1),
  state: z.string(),
  retry: z.array(z.string()),
});
const LedgerLineSchema = z.discriminatedUnion('type', [SubmittingSchema, SubmittedSchema, SubmitFailedSchema, CollectedSchema]);

export type SubmittedBatch = z.infer<typeof SubmittedSchema>;
export type CollectedBatch = z.infer<typeof CollectedSchema>;
export type SubmittingLine = z.infer<typeof SubmittingSchema>;

/** The ledger as read from disk. */
export interface Ledger {
  /** Every submitted batch in file order. */
  submitted: SubmittedBatch[];
  /** batch_id → its collected line. */
  collected: Map<string, CollectedBatch>;
  /**
   * `submitting` lines never followed by their `submitted` line (an interrupted submission) nor by a
   * `submit_failed` line that is sure no batch was created.
   */
  unconfirmed: SubmittingLine[];
  /** Next free `seq`. */
  nextSeq: number;
}

/** Reads and validates `batches.jsonl` (absent → empty ledger). InputError naming file and line. */
export function readLedger(file: string): Ledger {
  const ledger: Ledger = { submitted: [], collected: new Map(), unconfirmed: [], nextSeq: 1 };
  if (!existsSync(file)) return ledger;
  const intents = new Map<number, SubmittingLine>();
  const ids = new Set<string>();
  for (const { line, value } of readJsonl(file).lines) {
    const parsed = LedgerLineSchema.safeParse(value);
    if (!parsed.success) throw new InputError(`${file}:${line}: not a batch ledger line (${describeZodIssues(parsed.error.issues)})`, { file, line });
    const entry = parsed.data;
    if (entry.type === 'submitting') {
      intents.set(entry.seq, entry);
      ledger.nextSeq = Math.max(ledger.nextSeq, entry.seq + 1);
    } else if (entry.type === 'submitted') {
      if (ids.has(entry.batch_id)) throw new InputError(`${file}:${line}: batch ${entry.batch_id} is recorded twice`, { file, line, item: entry.batch_id });
      ids.add(entry.batch_id);
      intents.delete(entry.seq);
      ledger.submitted.push(entry);
      ledger.nextSeq = Math.max(ledger.nextSeq, entry.seq + 1);
    } else if (entry.type === 'submit_failed') {
      if (entry.created === false) intents.delete(entry.seq);
    } else {
      if (!ids.has(entry.batch_id)) throw new InputError(`${file}:${line}: collected batch ${entry.batch_id} was never submitted`, { file, line, item: entry.batch_id });
      ledger.collected.set(entry.batch_id, entry);
    }
  }
  ledger.unconfirmed = [...intents.values()];
  return ledger;
}

/** Submitted batches that have not been collected yet, in submission order. */
export function openBatches(ledger: Ledger): SubmittedBatch[] {
  return ledger.submitted.filter((b) => !ledger.collected.has(b.batch_id));
}

/**
 * The attempt number of the next submission of each run ID: one more than its last submission when
 * that batch was collected with the cell marked for retry (a follow-up batch), otherwise 1 (a first
 * request, or a fresh start after a final record or a quota stop). Builds the index once.
 */
export function nextAttempts(ledger: Ledger): (runId: string) => number {
  const last = new Map<string, { batchId: string; attempt: number }>();
  for (const batch of ledger.submitted) {
    for (const item of batch.items) last.set(item.run_id, { batchId: batch.batch_id, attempt: item.attempt });
  }
  const retry = new Set<string>();
  for (const c of ledger.collected.values()) for (const runId of c.retry) retry.add(`${c.batch_id}|${runId}`);
  return (runId) => {
    const l = last.get(runId);
    return l && retry.has(`${l.batchId}|${runId}`) ? l.attempt + 1 : 1;
  };
}

/** Appends one ledger line (single write + fsync), scrubbed like every other written line. */
export function appendLedger(file: string, record: Record<string, unknown>, redact: Redactor): void {
  appendLine(file, redact(JSON.stringify(record)));
}

const ANTHROPIC_CUSTOM_ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The custom_id a run ID is submitted under. OpenAI accepts any string, so custom_id = run ID.
 * Anthropic needs [A-Za-z0-9_-]{1,64}: the run ID's dots become underscores
 * (`slope.P2.o1.3fa9c0d1e2b4` → `slope_P2_o1_3fa9c0d1e2b4`); a run ID that still does not fit (other
 * characters in a domain id, or too long) becomes `h_` + the first 40 hex digits of its SHA-256.
 * Deterministic; the mapping is also written to the ledger and results are matched through it.
 */
export function customIdFor(provider: 'openai' | 'anthropic', runId: string): string {
  if (provider === 'openai') return runId;
  const dotted = runId.replace(/\./g, '_');
  if (ANTHROPIC_CUSTOM_ID.test(dotted)) return dotted;
  return `h_${createHash('sha256').update(runId, 'utf8').digest('hex').slice(0, 40)}`;
}

/**
 * Custom IDs for the run IDs of one batch; a collision (two run IDs mapping to the same underscore
 * form, e.g. `a.b` and `a_b`) falls back to the hash form for the later one, so custom_ids stay unique.
 */
export function customIdsFor(provider: 'openai' | 'anthropic', runIds: readonly string[]): string[] {
  const used = new Set<string>();
  return runIds.map((runId) => {
    let id = customIdFor(provider, runId);
    if (used.has(id)) id = `h_${createHash('sha256').update(runId, 'utf8').digest('hex').slice(0, 40)}`;
    if (used.has(id)) throw new InputError(`batch: run ID ${runId} is listed twice`, { item: runId });
    used.add(id);
    return id;
  });
}
