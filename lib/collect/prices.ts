import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { InputError, describeZodIssues } from '../errors';

/**
 * Cost estimates from the user-editable price table `config/prices.json` (USD per 1M tokens).
 * cost = (input_tokens · input + output_tokens · output) / 1e6 · (1 − batch_discount if batched).
 * Example: 2,000 in + 500 out at $1.25 / $10 → (2,500 + 5,000) / 1e6 = $0.0075.
 */

const PriceSchema = z
  .object({
    input: z.number().min(0),
    output: z.number().min(0),
    batch_discount: z.number().min(0).max(1).optional(),
  })
  .strict();

export const PriceTableSchema = z.object({
  $comment: z.string().optional(),
  as_of: z.string().optional(),
  models: z.record(z.string(), PriceSchema).default({}),
  providers: z.record(z.string(), PriceSchema).default({}),
});
export type PriceTable = z.infer<typeof PriceTableSchema>;
export type Price = z.infer<typeof PriceSchema>;

/** Where the shipped table lives, relative to the package root (works from lib/ and dist/lib/). */
export function defaultPriceFile(): string {
  const here = __dirname;
  const root = here.includes(`${join('dist', 'lib')}`) ? join(here, '..', '..', '..') : join(here, '..', '..');
  return join(root, 'config', 'prices.json');
}

export function parsePriceTable(text: string, file: string): PriceTable {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new InputError(`${file}: not valid JSON (${(err as Error).message})`, { file });
  }
  const parsed = PriceTableSchema.safeParse(raw);
  if (!parsed.success) throw new InputError(`${file}: ${describeZodIssues(parsed.error.issues)}`, { file });
  return parsed.data;
}

export function loadPriceTable(file = defaultPriceFile()): PriceTable {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new InputError(`${file}: cannot read price table (${(err as NodeJS.ErrnoException).code ?? String(err)})`, { file });
  }
  return parsePriceTable(text, file);
}

/** The price for a model spec `provider:model`: exact model entry first, then the provider entry. */
export function lookupPrice(table: PriceTable, modelSpec: string): Price | null {
  const exact = table.models[modelSpec];
  if (exact) return exact;
  const provider = modelSpec.split(':')[0] ?? '';
  return table.providers[provider] ?? null;
}

export interface CostEstimate {
  usd: number | null;
  note?: string;
}

/** Cost of the given token counts for `modelSpec`; null with a note when the table has no price. */
export function estimateCost(
  table: PriceTable,
  modelSpec: string,
  tokens: { inputTokens: number; outputTokens: number },
  options: { batch?: boolean } = {},
): CostEstimate {
  const price = lookupPrice(table, modelSpec);
  if (!price) return { usd: null, note: `no price for ${modelSpec} in the price table` };
  const factor = options.batch ? 1 - (price.batch_discount ?? 0) : 1;
  const usd = ((tokens.inputTokens * price.input + tokens.outputTokens * price.output) / 1e6) * factor;
  return { usd: roundUsd(usd) };
}

/** Rounds to 1e-8 USD so sums print stably and JSON stays byte-reproducible. */
export function roundUsd(x: number): number {
  return Math.round(x * 1e8) / 1e8;
}

/**
 * Token estimate for text not yet sent: ceil(characters / 4), the usual rule of thumb for English
 * prose with BPE tokenizers. Used by --dry-run and for billed-but-unanswered (timed-out) attempts.
 */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/**
 * Assumed output tokens per call for estimates where the real count is unknown: a JSON answer with a
 * few short justifications is ~300–800 tokens, reasoning models add hidden reasoning; 1,500 is a
 * middle assumption. --dry-run also prints the upper bound at --max-output-tokens.
 */
export const ASSUMED_OUTPUT_TOKENS = 1500;
