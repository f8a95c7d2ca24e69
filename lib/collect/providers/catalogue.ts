/**
 * The model catalogue `config/models.json`: what is known about each model the study may call —
 * provider and API, output-token cap, context window, accepted sampling and reasoning parameters,
 * prices, retirement date — each fact with its `as_of` date and source, and `to_check` when it
 * could not be verified offline. Dated snapshots resolve to their family (`gpt-4o-2024-08-06` →
 * `gpt-4o`, `claude-haiku-4-5-20251001` → `claude-haiku-4-5`). A model that is not listed is
 * allowed: it runs at the caps the user gives and costs null, with a warning.
 */
import { join } from 'node:path';
import { z } from 'zod';
import { InputError, describeZodIssues } from '../../errors';
import { parseJsonFile } from '../../io/json';
import { readUtf8File } from '../../io/read';

function factOf<T extends z.ZodTypeAny>(value: T) {
  return z
    .object({
      value,
      as_of: z.string().min(1),
      source: z.string().min(1),
      to_check: z.literal(true).optional(),
    })
    .strict();
}

export const ModelApiSchema = z.enum(['chat_completions', 'responses', 'messages']);
export type ModelApi = z.infer<typeof ModelApiSchema>;

const ModelPricesSchema = z
  .object({
    input: z.number().min(0),
    /** null: the cached rate is unknown; cached tokens are then priced at the input rate. */
    cached_input: z.number().min(0).nullable(),
    output: z.number().min(0),
  })
  .strict();

const ModelParamsSchema = z
  .object({
    temperature: z.boolean(),
    top_p: z.boolean(),
    /** OpenAI `reasoning_effort` values the model accepts; null when it takes none. */
    reasoning_effort: z.array(z.string().min(1)).nullable(),
    /** Anthropic `thinking.type` values the model accepts; null when it takes none. */
    thinking: z.array(z.enum(['disabled', 'enabled', 'adaptive'])).nullable(),
    /** Anthropic `output_config.effort` values; null when not accepted. */
    effort: z.array(z.string().min(1)).nullable(),
  })
  .strict();
export type ModelParams = z.infer<typeof ModelParamsSchema>;

const ModelEntrySchema = z
  .object({
    provider: z.enum(['openai', 'anthropic', 'openai-compatible']),
    in_sdk: factOf(z.boolean()),
    api: factOf(ModelApiSchema),
    max_output_tokens: factOf(z.number().int().positive().nullable()),
    context_window: factOf(z.number().int().positive().nullable()),
    params: factOf(ModelParamsSchema),
    prices: factOf(ModelPricesSchema.nullable()),
    batch_discount: factOf(z.number().min(0).max(1)),
    typical_output_tokens: factOf(z.number().int().positive()),
    retires: factOf(z.string().nullable()).optional(),
  })
  .strict();
export type ModelEntry = z.infer<typeof ModelEntrySchema>;

const ProviderEntrySchema = z
  .object({
    prices: factOf(ModelPricesSchema),
    batch_discount: factOf(z.number().min(0).max(1)),
  })
  .strict();

export const CatalogueSchema = z
  .object({
    $comment: z.string().optional(),
    catalogue_version: z.literal(1),
    as_of: z.string(),
    models: z.record(z.string().regex(/^[a-z-]+:\S+$/, 'keys are provider:model'), ModelEntrySchema),
    providers: z.record(z.string(), ProviderEntrySchema).default({}),
  })
  .strict()
  .superRefine((cat, ctx) => {
    for (const [key, entry] of Object.entries(cat.models)) {
      if (!key.startsWith(`${entry.provider}:`)) {
        ctx.addIssue({ code: 'custom', path: ['models', key, 'provider'], message: `key ${key} does not start with its provider ${entry.provider}:` });
      }
    }
  });
export type Catalogue = z.infer<typeof CatalogueSchema>;

/** The shipped catalogue, relative to the package root (works from lib/ and dist/lib/). */
export function defaultCatalogueFile(): string {
  const here = __dirname;
  const root = here.includes(join('dist', 'lib')) ? join(here, '..', '..', '..', '..') : join(here, '..', '..', '..');
  return join(root, 'config', 'models.json');
}

/** True when parsed JSON looks like a catalogue (rather than a legacy price table). */
export function isCatalogueJson(raw: unknown): boolean {
  return raw !== null && typeof raw === 'object' && 'catalogue_version' in (raw as object);
}

export function parseCatalogue(raw: unknown, file: string): Catalogue {
  const parsed = CatalogueSchema.safeParse(raw);
  if (!parsed.success) throw new InputError(`${file}: ${describeZodIssues(parsed.error.issues)}`, { file });
  return parsed.data;
}

const cache = new Map<string, Catalogue>();

/** Reads and validates a catalogue file (cached per path); InputError naming the file otherwise. */
export function loadCatalogue(file = defaultCatalogueFile()): Catalogue {
  const hit = cache.get(file);
  if (hit) return hit;
  const text = readUtf8File(file, (reason) => `${file}: cannot read the model catalogue (${reason})`);
  // One JSON reading (lib/io): a syntax error names the file and its line.
  const raw: unknown = parseJsonFile(text, file, z.unknown());
  const cat = parseCatalogue(raw, file);
  cache.set(file, cat);
  return cat;
}

/** `gpt-4o-2024-08-06` → `gpt-4o`; `claude-haiku-4-5-20251001` → `claude-haiku-4-5`; otherwise null. */
export function snapshotFamily(model: string): string | null {
  const m = model.match(/^(.+?)-(?:\d{4}-\d{2}-\d{2}|\d{8})$/);
  return m ? m[1]! : null;
}

export interface CatalogueMatch {
  /** The catalogue key that matched (`openai:gpt-4o` for `openai:gpt-4o-2024-08-06`). */
  key: string;
  entry: ModelEntry;
  via: 'exact' | 'snapshot';
}

/** Looks a `provider:model` spec up: exact key first, then the snapshot's family. Null when unknown. */
export function lookupModel(catalogue: Catalogue, spec: string): CatalogueMatch | null {
  const exact = catalogue.models[spec];
  if (exact) return { key: spec, entry: exact, via: 'exact' };
  const colon = spec.indexOf(':');
  const family = colon > 0 ? snapshotFamily(spec.slice(colon + 1)) : null;
  if (family !== null) {
    const key = `${spec.slice(0, colon)}:${family}`;
    const entry = catalogue.models[key];
    if (entry) return { key, entry, via: 'snapshot' };
  }
  return null;
}

/**
 * Warnings to print before a run for one model: unknown to the catalogue, absent from the installed
 * SDK, retiring, or served by another API than Chat Completions. Empty when there is nothing to say.
 */
export function catalogueWarnings(catalogue: Catalogue, spec: string, nowIso: string = new Date().toISOString()): string[] {
  const provider = spec.slice(0, Math.max(0, spec.indexOf(':')));
  if (provider === 'simulated') return [];
  const match = lookupModel(catalogue, spec);
  if (!match) {
    if (provider === 'openai-compatible') return [];
    return [`${spec} is not in the model catalogue (config/models.json): it runs at the output allowance you give (--max-output-tokens or max_output_tokens in --models-file) and its cost is unknown`];
  }
  const out: string[] = [];
  const e = match.entry;
  if (!e.in_sdk.value) out.push(`${spec}: ${e.in_sdk.source}`);
  const retires = e.retires?.value;
  if (retires) {
    const date = Date.parse(retires);
    out.push(Number.isNaN(date) || date > Date.parse(nowIso) ? `${spec} retires ${retires} (${e.retires!.source})` : `${spec} was retired on ${retires} (${e.retires!.source})`);
  }
  if (e.api.value === 'responses') out.push(`${spec} is served by the Responses API only; kstbench calls Chat Completions, so this model will fail (pre-flight stops the run)`);
  return out;
}
