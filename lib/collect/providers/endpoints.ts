/**
 * Where each model is sent and with which key. A run may mix OpenAI, Anthropic and local
 * OpenAI-compatible servers, so every model has its own base URL and key variable:
 * - `spec@URL` on --models (`openai-compatible:llama3.1:8b@http://127.0.0.1:11434/v1`);
 * - a `--models-file` (JSON, `ModelsFileSchema`) with per-model base URL, key variable, token field,
 *   schema dialect, output cap, sampling, reasoning effort and thinking;
 * - `--base-url` for the whole run: it applies to `openai-compatible:` models, and to `openai:` /
 *   `anthropic:` models only when the run calls no other real provider (a gateway for that one
 *   provider). A run mixing providers sends each `openai:`/`anthropic:` model to its provider.
 *
 * Keys: `openai:` reads OPENAI_API_KEY, `anthropic:` ANTHROPIC_API_KEY, `openai-compatible:`
 * OPENAI_COMPATIBLE_API_KEY (else a placeholder) — or the variable named by `api_key_env`. The
 * OpenAI key is never sent to an OpenAI-compatible server unless `api_key_env` names it.
 * URLs with credentials (`user:pw@host`, `?api_key=…`) are refused; `redactUrl` masks them anywhere
 * a URL is shown or stored.
 */
import { z } from 'zod';
import { InputError, describeZodIssues } from '../../errors';
import { PLACEHOLDER_API_KEY } from './defaults';
import { parseModelSpec, type ProviderName } from '../../provider/contract';
import { parseJsonFile } from '../../io/json';
import { readUtf8File } from '../../io/read';

/** Query parameters that carry credentials (`api_key`, `key`, `token`, `sig`, `password`, …). */
const CREDENTIAL_QUERY = /(key|token|secret|pass|auth|sig|credential|session)/i;

/**
 * `text` with the user info of every URL in it (`//user:pw@`) replaced by `//[redacted]@`: for text
 * that quotes a URL, such as undici's "Request cannot be constructed from a URL that includes
 * credentials: http://user:pw@…" (review4 M2).
 * @example
 * maskUserInfo('bad: http://u:pw@gw.test/v1'); // => 'bad: http://[redacted]@gw.test/v1'
 */
export function maskUserInfo(text: string): string {
  return text.replace(/\/\/[^/@\s]*@/g, '//[redacted]@');
}

/**
 * A URL safe to show or store: user info and credential-like query values replaced by
 * `[redacted]`. Text that is not a URL passes through with any `//user:pw@` masked.
 */
export function redactUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return maskUserInfo(text);
  }
  const hadUser = url.username !== '' || url.password !== '';
  url.username = '';
  url.password = '';
  let masked = false;
  for (const name of [...url.searchParams.keys()]) {
    if (CREDENTIAL_QUERY.test(name)) {
      url.searchParams.set(name, 'REDACTED');
      masked = true;
    }
  }
  if (!hadUser && !masked) return text;
  let out = url.toString().replace(/=REDACTED/g, '=[redacted]');
  if (hadUser) out = out.replace(`${url.protocol}//`, `${url.protocol}//[redacted]@`);
  return out;
}

/**
 * Validates a base URL (http/https, no credentials in it) and drops trailing slashes. InputError
 * naming the model and the (redacted) URL otherwise; the credential itself is never echoed.
 */
export function checkBaseUrl(baseUrl: string, spec: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new InputError(`base URL ${JSON.stringify(redactUrl(baseUrl))} for ${spec} is not a valid URL`, { item: spec });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InputError(`base URL ${JSON.stringify(redactUrl(baseUrl))} for ${spec} must be http(s)`, { item: spec });
  }
  if (url.username !== '' || url.password !== '') {
    throw new InputError(
      `base URL ${JSON.stringify(redactUrl(baseUrl))} for ${spec} contains a user name or password: remove it and put the key in an environment variable (api_key_env in --models-file)`,
      { item: spec },
    );
  }
  for (const name of url.searchParams.keys()) {
    if (CREDENTIAL_QUERY.test(name)) {
      throw new InputError(
        `base URL ${JSON.stringify(redactUrl(baseUrl))} for ${spec} carries a credential in its query (${name}=…): remove it and put the key in an environment variable (api_key_env in --models-file)`,
        { item: spec },
      );
    }
  }
  return baseUrl.replace(/\/+$/, '');
}

/** Host names whose traffic stays on this machine. */
const LOOPBACK = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/**
 * The warning printed before the run when a real key would travel unencrypted: a `http:` base URL
 * to a host that is not this machine, with a key from `keyVariable` (null: the placeholder, no
 * secret). The key is in the Authorization header of every call, readable on the way.
 * @example
 * plainHttpKeyNote('http://gw.example/v1', 'OPENAI_API_KEY', 'openai:m')?.startsWith('openai:m: the key in OPENAI_API_KEY goes to gw.example over plain http'); // => true
 * plainHttpKeyNote('http://127.0.0.1:11434/v1', 'OPENAI_API_KEY', 'm'); // => null
 * plainHttpKeyNote('https://gw.example/v1', 'OPENAI_API_KEY', 'm'); // => null
 */
export function plainHttpKeyNote(baseUrl: string, keyVariable: string | null, spec: string): string | null {
  const url = new URL(baseUrl);
  if (url.protocol !== 'http:' || keyVariable === null || LOOPBACK.test(url.hostname)) return null;
  return `${spec}: the key in ${keyVariable} goes to ${url.host} over plain http, unencrypted: use https unless every network on the way is yours`;
}

/** The host a URL points at (`api.openai.com`, `127.0.0.1:11434`). */
export function hostOf(baseUrl: string): string {
  return new URL(baseUrl).host;
}

/**
 * Splits `spec@URL` (or `spec@URL=VARIABLE`: the environment variable holding this host's key) into
 * the model spec, its base URL and its key variable. Only an `@` followed by `http://` or `https://`
 * starts a URL, so model names containing `@` (Vertex-style `claude-haiku-4-5@20251001`) stay
 * intact; `=VARIABLE` is read only at the end of a URL without a query.
 * @example
 * splitSpecUrl('openai-compatible:llama3.1:8b@http://127.0.0.1:11434/v1'); // => { spec: 'openai-compatible:llama3.1:8b', baseUrl: 'http://127.0.0.1:11434/v1' }
 * splitSpecUrl('openai-compatible:m@http://gpu-1:8000/v1=GPU1_KEY'); // => { spec: 'openai-compatible:m', baseUrl: 'http://gpu-1:8000/v1', keyVariable: 'GPU1_KEY' }
 * splitSpecUrl('anthropic:claude-haiku-4-5@20251001'); // => { spec: 'anthropic:claude-haiku-4-5@20251001' }
 */
export function splitSpecUrl(arg: string): { spec: string; baseUrl?: string; keyVariable?: string } {
  const m = arg.match(/^(.*?)@(https?:\/\/.*)$/i);
  if (!m) return { spec: arg };
  const keyed = m[2]!.includes('?') ? null : m[2]!.match(/^(.*)=([A-Za-z_][A-Za-z0-9_]*)$/);
  if (keyed) return { spec: m[1]!, baseUrl: keyed[1]!, keyVariable: keyed[2]! };
  return { spec: m[1]!, baseUrl: m[2]! };
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export const ThinkingSettingSchema = z.union([
  z.literal('disabled'),
  z.literal('adaptive'),
  z.object({ type: z.literal('enabled'), budget_tokens: z.number().int().min(1024) }).strict(),
]);
export type ThinkingSetting = z.infer<typeof ThinkingSettingSchema>;

/** Per-model options, from --models-file (all optional but `spec`). */
export const ModelOptionsSchema = z
  .object({
    spec: z.string().min(3),
    base_url: z.string().min(1).optional(),
    /** Environment variable holding this model's key (e.g. `OLLAMA_KEY`); the only way to send OPENAI_API_KEY to a compatible server. */
    api_key_env: z.string().regex(ENV_NAME, 'an environment variable name').optional(),
    /** The output-token field this server reads (OpenAI-compatible servers; default `max_tokens`). */
    token_field: z.enum(['max_tokens', 'max_completion_tokens']).optional(),
    /** JSON-schema dialect the server accepts: `openai` (type arrays) or `gemini` (anyOf with null). */
    schema_dialect: z.enum(['openai', 'gemini']).optional(),
    /** Output-token cap of this model; the allowance sent is min(--max-output-tokens, this). */
    max_output_tokens: z.number().int().positive().optional(),
    /** Context window (prompt + output) of this model / server (vLLM `max_model_len`). */
    context_window: z.number().int().positive().optional(),
    temperature: z.number().min(0).max(2).optional(),
    top_p: z.number().gt(0).max(1).optional(),
    /** OpenAI `reasoning_effort`. */
    reasoning_effort: z.string().min(1).optional(),
    /** Anthropic `thinking`: `disabled`, `adaptive` or `{type: 'enabled', budget_tokens}`. */
    thinking: ThinkingSettingSchema.optional(),
    /** Anthropic `output_config.effort`. */
    effort: z.string().min(1).optional(),
    /** Anthropic structured output: `native` (output_config.format json_schema, default) or `strict_tool`. */
    structured_output: z.enum(['native', 'strict_tool']).optional(),
  })
  .strict();
export type ModelOptions = z.infer<typeof ModelOptionsSchema>;

export const ModelsFileSchema = z
  .object({
    $comment: z.string().optional(),
    models: z.array(ModelOptionsSchema).min(1),
  })
  .strict();
export type ModelsFile = z.infer<typeof ModelsFileSchema>;

/** Parses a --models-file; InputError naming the file and the entry otherwise (duplicate specs refused). */
export function parseModelsFile(text: string, file: string): ModelsFile {
  // One JSON reading (lib/io): a syntax error names the file and its line.
  const raw: unknown = parseJsonFile(text, file, z.unknown());
  const parsed = ModelsFileSchema.safeParse(raw);
  if (!parsed.success) throw new InputError(`${file}: ${describeZodIssues(parsed.error.issues)}`, { file });
  const seen = new Set<string>();
  parsed.data.models.forEach((m, i) => {
    try {
      parseModelSpec(m.spec);
    } catch (err) {
      throw new InputError(`${file}: models[${i}]: ${(err as Error).message}`, { file, item: m.spec });
    }
    if (seen.has(m.spec)) throw new InputError(`${file}: models[${i}]: ${m.spec} is listed twice`, { file, item: m.spec });
    seen.add(m.spec);
    if (m.base_url !== undefined) {
      try {
        checkBaseUrl(m.base_url, m.spec);
      } catch (err) {
        throw new InputError(`${file}: models[${i}]: ${(err as Error).message}`, { file, item: m.spec });
      }
    }
  });
  return parsed.data;
}

export function loadModelsFile(file: string): ModelsFile {
  return parseModelsFile(readUtf8File(file, (reason) => `${file}: cannot read the models file (${reason})`), file);
}

export interface ModelTarget {
  /** The model spec without any `@URL` (the name used in records and run IDs). */
  spec: string;
  provider: ProviderName;
  /** Base URL for this model; undefined = the provider's default endpoint. */
  baseUrl?: string;
  options: ModelOptions;
}

export interface ResolvedTargets {
  targets: ModelTarget[];
  /** Lines to print before the run (e.g. which models --base-url does not apply to). */
  notes: string[];
  /** Key variables named for any model (spec@URL=VARIABLE, api_key_env): redacted from every file like the standard ones. */
  keyVariables: string[];
  /** The options for one spec, to pass to `createProvider(spec, targets.optionsFor(spec))`. */
  optionsFor(spec: string): { baseUrl?: string; model: ModelOptions; sharedCompatibleKey?: false };
}

/**
 * Resolves every `--models` entry (optionally `spec@URL`) to its spec, base URL and options.
 * Precedence of the URL: `spec@URL`, then the models file's `base_url`, then `--base-url` under the
 * routing rule in the header. Throws InputError for a credential in a URL, the same spec twice, or a
 * simulated model with a URL.
 */
export function resolveModelTargets(
  modelArgs: readonly string[],
  options: { baseUrl?: string; modelsFile?: ModelsFile | string } = {},
): ResolvedTargets {
  const file = typeof options.modelsFile === 'string' ? loadModelsFile(options.modelsFile) : options.modelsFile;
  const fromFile = new Map((file?.models ?? []).map((m) => [m.spec, m] as const));
  const parsed = modelArgs.map((arg) => {
    const { spec, baseUrl, keyVariable } = splitSpecUrl(arg);
    const { provider } = parseModelSpec(spec);
    if (baseUrl !== undefined) checkBaseUrl(baseUrl, spec);
    if (provider === 'simulated' && baseUrl !== undefined) throw new InputError(`${spec}: a simulated model takes no URL`, { item: spec });
    const fileKey = fromFile.get(spec)?.api_key_env;
    if (keyVariable !== undefined && fileKey !== undefined && fileKey !== keyVariable) {
      throw new InputError(`${spec}: --models names key variable ${keyVariable} but --models-file names ${fileKey}; give one`, { item: spec });
    }
    return { spec, provider, baseUrl, keyVariable };
  });
  const seen = new Set<string>();
  for (const p of parsed) {
    if (seen.has(p.spec)) throw new InputError(`--models lists ${p.spec} twice (with or without @URL); give each model once`, { item: p.spec });
    seen.add(p.spec);
  }
  if (options.baseUrl !== undefined) checkBaseUrl(options.baseUrl, '--base-url');
  const realProviders = new Set(parsed.filter((p) => p.provider !== 'simulated').map((p) => p.provider));
  const notes: string[] = [];
  const targets = parsed.map(({ spec, provider, baseUrl, keyVariable }): ModelTarget => {
    const listed: ModelOptions = fromFile.get(spec) ?? { spec };
    const entry: ModelOptions = keyVariable !== undefined ? { ...listed, api_key_env: keyVariable } : listed;
    let url = baseUrl ?? entry.base_url;
    if (url === undefined && options.baseUrl !== undefined && provider !== 'simulated') {
      const applies = provider === 'openai-compatible' || realProviders.size === 1;
      if (applies) url = options.baseUrl;
      else notes.push(`--base-url does not apply to ${spec} (this run mixes providers): it goes to its provider's own endpoint; use ${spec}@URL or --models-file to route it elsewhere`);
    }
    return { spec, provider, ...(url !== undefined ? { baseUrl: checkBaseUrl(url, spec) } : {}), options: entry };
  });
  const bySpec = new Map(targets.map((t) => [t.spec, t] as const));
  // OPENAI_COMPATIBLE_API_KEY is one host's key: with several compatible hosts it goes to none of
  // them; each host's key is named (spec@URL=VARIABLE or api_key_env).
  const compatibleHosts = new Set(targets.filter((t) => t.provider === 'openai-compatible' && t.baseUrl !== undefined).map((t) => hostOf(t.baseUrl!)));
  const sharedCompatibleKey = compatibleHosts.size <= 1;
  return {
    targets,
    notes,
    keyVariables: [...new Set(targets.map((t) => t.options.api_key_env).filter((v): v is string => v !== undefined))],
    optionsFor(spec: string) {
      const t = bySpec.get(spec);
      if (!t) throw new InputError(`${spec} is not one of the resolved models`, { item: spec });
      return { ...(t.baseUrl !== undefined ? { baseUrl: t.baseUrl } : {}), model: t.options, ...(sharedCompatibleKey ? {} : { sharedCompatibleKey: false }) };
    },
  };
}

/** The key for one model: which variable it came from (or null for the placeholder) and its value. */
export interface ResolvedKey {
  variable: string | null;
  value: string;
}

/**
 * The API key for a model, by the rules in the header. Throws InputError naming the variable when a
 * required key is missing; never includes a value in a message.
 */
export function resolveApiKey(
  provider: Exclude<ProviderName, 'simulated'>,
  options: Pick<ModelOptions, 'api_key_env' | 'spec'>,
  env: NodeJS.ProcessEnv,
  sharedCompatibleKey = true,
): ResolvedKey {
  const read = (variable: string): string | undefined => {
    const v = env[variable]?.trim();
    return v ? v : undefined;
  };
  const need = (variable: string): ResolvedKey => {
    const value = read(variable);
    if (value === undefined) {
      throw new InputError(`${options.spec} needs an API key: set the environment variable ${variable}`, { item: variable });
    }
    return { variable, value };
  };
  if (options.api_key_env !== undefined) return need(options.api_key_env);
  switch (provider) {
    case 'openai':
      return need('OPENAI_API_KEY');
    case 'anthropic':
      return need('ANTHROPIC_API_KEY');
    case 'openai-compatible': {
      const value = read('OPENAI_COMPATIBLE_API_KEY');
      if (value !== undefined && !sharedCompatibleKey) {
        throw new InputError(
          `${options.spec}: this run has several OpenAI-compatible hosts, so OPENAI_COMPATIBLE_API_KEY would reach all of them; name this host's key variable (${options.spec}@URL=VARIABLE, or api_key_env in --models-file), or unset OPENAI_COMPATIBLE_API_KEY`,
          { item: options.spec },
        );
      }
      return value !== undefined ? { variable: 'OPENAI_COMPATIBLE_API_KEY', value } : { variable: null, value: PLACEHOLDER_API_KEY };
    }
  }
}
