import { z } from 'zod';
import { InputError, describeZodIssues } from '../errors';
import { defaultCatalogueFile, isCatalogueJson, parseCatalogue, snapshotFamily, type Catalogue } from './providers/catalogue';
import { parseJsonFile } from '../io/json';
import { readUtf8File } from '../io/read';
import { isFilteredPrompt } from './providers/openai-format';
import type { CompletionResult } from '../provider/contract';

/**
 * Cost estimates, USD per 1M tokens. The shipped prices live in the model catalogue
 * `config/models.json` (one home for every model fact); a legacy price table
 * (`{models: {"provider:model": {input, output, cached_input?, batch_discount?}}, providers: {…}}`)
 * is still accepted for a user-supplied file.
 *
 * cost = ((input − cached) · input_price + cached · cached_price + output · output_price) / 1e6
 *        · (1 − batch_discount if batched)
 * 2,000 in (1,000 of them cached) + 500 out at $1.25 / $0.125 / $10 cost (1,250 + 125 + 5,000) / 1e6 =
 * $0.006375; batched at a 50 % discount, half that.
 * @example
 * const table = { models: { 'openai:m': { input: 1.25, cached_input: 0.125, output: 10, batch_discount: 0.5 } }, providers: {} };
 * const tokens = { inputTokens: 2000, cachedInputTokens: 1000, outputTokens: 500 };
 * estimateCost(table, 'openai:m', tokens); // => { usd: 0.006375 }
 * estimateCost(table, 'openai:m', tokens, { batch: true }); // => { usd: 0.0031875 }
 * estimateCost(table, 'anthropic:x', tokens).usd; // => null
 */

const PriceSchema = z
  .object({
    input: z.number().min(0),
    output: z.number().min(0),
    /** Price of input tokens read from the prompt cache; absent = priced at `input`. */
    cached_input: z.number().min(0).optional(),
    batch_discount: z.number().min(0).max(1).optional(),
    /** Output tokens assumed per call by --dry-run (reasoning models think before answering). */
    typical_output_tokens: z.number().int().positive().optional(),
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

/** The shipped prices: the model catalogue `config/models.json`. */
export function defaultPriceFile(): string {
  return defaultCatalogueFile();
}

/** The catalogue's prices as a price table (models without a known price are left out). */
export function priceTableFromCatalogue(cat: Catalogue): PriceTable {
  const models: Record<string, Price> = {};
  for (const [spec, e] of Object.entries(cat.models)) {
    const prices = e.prices.value;
    if (!prices) continue;
    models[spec] = {
      input: prices.input,
      output: prices.output,
      ...(prices.cached_input !== null ? { cached_input: prices.cached_input } : {}),
      batch_discount: e.batch_discount.value,
      typical_output_tokens: e.typical_output_tokens.value,
    };
  }
  const providers: Record<string, Price> = {};
  for (const [name, e] of Object.entries(cat.providers)) {
    const prices = e.prices.value;
    providers[name] = {
      input: prices.input,
      output: prices.output,
      ...(prices.cached_input !== null ? { cached_input: prices.cached_input } : {}),
      batch_discount: e.batch_discount.value,
    };
  }
  return { as_of: cat.as_of, models, providers };
}

/** Parses a price file: the model catalogue (`catalogue_version`) or a legacy price table. */
export function parsePriceTable(text: string, file: string): PriceTable {
  // One JSON reading (lib/io): a syntax error names the file and its line.
  const raw: unknown = parseJsonFile(text, file, z.unknown());
  if (isCatalogueJson(raw)) return priceTableFromCatalogue(parseCatalogue(raw, file));
  const parsed = PriceTableSchema.safeParse(raw);
  if (!parsed.success) throw new InputError(`${file}: ${describeZodIssues(parsed.error.issues)}`, { file });
  return parsed.data;
}

export function loadPriceTable(file = defaultPriceFile()): PriceTable {
  return parsePriceTable(readUtf8File(file, (reason) => `${file}: cannot read price table (${reason})`), file);
}

/**
 * The price for a model spec `provider:model`: the exact entry, then the dated snapshot's family
 * (`openai:gpt-4o-2024-08-06` → `openai:gpt-4o`), then the provider entry.
 */
export function lookupPrice(table: PriceTable, modelSpec: string): Price | null {
  const exact = table.models[modelSpec];
  if (exact) return exact;
  const colon = modelSpec.indexOf(':');
  const family = colon > 0 ? snapshotFamily(modelSpec.slice(colon + 1)) : null;
  if (family !== null) {
    const hit = table.models[`${modelSpec.slice(0, colon)}:${family}`];
    if (hit) return hit;
  }
  const provider = modelSpec.split(':')[0] ?? '';
  return table.providers[provider] ?? null;
}

export interface CostEstimate {
  usd: number | null;
  note?: string;
}

/** Token counts to price; `cachedInputTokens` is the part of `inputTokens` read from the cache. */
export interface TokenCounts {
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens?: number;
  reasoningTokens?: number;
}

/**
 * Cost of the given token counts for `modelSpec`; null with a note when the table has no price.
 * Cached input is priced at `cached_input` (at `input`, with a note, when the rate is unknown).
 * Reasoning tokens are part of `outputTokens` and billed as output.
 */
export function estimateCost(table: PriceTable, modelSpec: string, tokens: TokenCounts, options: { batch?: boolean } = {}): CostEstimate {
  const price = lookupPrice(table, modelSpec);
  if (!price) return { usd: null, note: `no price for ${modelSpec} in the price table` };
  const factor = options.batch ? 1 - (price.batch_discount ?? 0) : 1;
  const cached = Math.min(Math.max(0, tokens.cachedInputTokens ?? 0), tokens.inputTokens);
  const cachedRate = price.cached_input ?? price.input;
  const usd = (((tokens.inputTokens - cached) * price.input + cached * cachedRate + tokens.outputTokens * price.output) / 1e6) * factor;
  const estimate: CostEstimate = { usd: roundUsd(usd) };
  if (cached > 0 && price.cached_input === undefined) estimate.note = `no cached-input price for ${modelSpec}: cached tokens priced at the input rate`;
  return estimate;
}

/**
 * Output tokens assumed per call for `modelSpec` where the real count is unknown (--dry-run, a
 * billed-but-unanswered attempt): the catalogue's per-model `typical_output_tokens` (reasoning models
 * think first, so theirs is higher), else ASSUMED_OUTPUT_TOKENS.
 */
export function assumedOutputTokens(table: PriceTable, modelSpec: string): number {
  return lookupPrice(table, modelSpec)?.typical_output_tokens ?? ASSUMED_OUTPUT_TOKENS;
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
 * Fallback output tokens per call for a model without a catalogue estimate: a JSON answer with a few
 * short justifications is ~300–800 tokens, reasoning models add hidden reasoning; 1,500 is a middle
 * assumption. --dry-run also prints the upper bound at --max-output-tokens.
 */
export const ASSUMED_OUTPUT_TOKENS = 1500;

/**
 * Why an answer without reported usage has no cost (`usd: null`, basis `unknown`). A prompt the
 * content filter refused with a 400 is billed all the same: Azure OpenAI documents that "there will
 * be a charge for this request as the prompt was evaluated by the service", for the prompt and, the
 * filter being asynchronous, completion tokens too
 * (https://learn.microsoft.com/en-us/azure/ai-services/openai/concepts/content-filter). Its 400 body
 * reports no usage, so the amount is unknown, not $0; the note says so instead of blaming the provider.
 */
export function noUsageNote(result: CompletionResult): string {
  return isFilteredPrompt(result)
    ? 'prompt refused by the content filter (HTTP 400): billed (Azure OpenAI charges a filtered prompt), but the answer reports no token usage, so the amount is unknown'
    : 'provider reported no token usage';
}
