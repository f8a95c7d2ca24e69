import { createHash } from 'node:crypto';
import { z } from 'zod';
import { InputError, describeZodIssues } from '../errors';
import { checkState, type Domain } from '../kst';
import { parseJsonFile } from '../io/json';
import { readUtf8File } from '../io/read';

/**
 * `kstbench collect --states FILE`: collect a documented sample of knowledge states instead of every
 * state, so that domains with very large knowledge spaces stay feasible.
 *
 * Accepted forms (JSON):
 * 1. one state sample as written by `sampleStates` in lib/kst:
 *    `{ "scheme": "...", "domain": "slope", "seed": "7", "states": [["a"], ["a","b"]], "weights": [0.5, 0.5], ... }`
 * 2. an array of such samples (one per domain);
 * 3. a plain map `{ "<domain id>": [[ids…], …], … }`.
 * Domains that the file does not mention are collected on all their states. Every state must be a
 * knowledge state of its domain (checked with `checkState`); IDs are put in canonical order; a state
 * listed twice, an unknown domain or an unknown ID is an InputError naming the file and the state.
 */

const StateListSchema = z.array(z.array(z.string()));

const SampleSchema = z.looseObject({
  scheme: z.string(),
  domain: z.string(),
  seed: z.string(),
  states: StateListSchema,
  weights: z.array(z.number()).optional(),
  counts: z.array(z.number()).optional(),
  draws: z.number().optional(),
});

const StatesFileSchema = z.union([SampleSchema, z.array(SampleSchema).min(1), z.record(z.string(), StateListSchema)]);

/** What the file contributed, for run.json. */
export interface StatesFileDomainInfo {
  states: number;
  scheme: string | null;
  seed: string | null;
  draws: number | null;
  /** Sample weights (counts / draws) as given, aligned with the canonicalised states; null for a plain map. */
  weights: number[] | null;
}

export interface StatesFile {
  file: string;
  /** domain id → states (canonical IDs in canonical order), in file order. */
  states: Map<string, string[][]>;
  /** SHA-256 of the canonicalised selection (sorted domain ids → states): the resume fingerprint. */
  sha256: string;
  domains: Record<string, StatesFileDomainInfo>;
}

/** Parses and validates a states file against the loaded domains (pure: text in, value out). */
export function parseStatesFile(text: string, file: string, domains: readonly Domain[]): StatesFile {
  // One JSON reading (lib/io): a syntax error names the file and its line.
  const raw: unknown = parseJsonFile(text, file, z.unknown());
  const parsed = StatesFileSchema.safeParse(raw);
  if (!parsed.success) {
    throw new InputError(
      `${file}: expected a state sample {scheme, domain, seed, states, weights}, an array of them, or a map {"<domain>": [[ids…], …]} (${describeZodIssues(parsed.error.issues)})`,
      { file },
    );
  }
  const entries: Array<{ domain: string; states: string[][]; info: Omit<StatesFileDomainInfo, 'states' | 'weights'>; weights: number[] | null; label: string }> = [];
  const value = parsed.data;
  if (Array.isArray(value) || typeof (value as { scheme?: unknown }).scheme === 'string') {
    const samples = (Array.isArray(value) ? value : [value]) as Array<z.infer<typeof SampleSchema>>;
    samples.forEach((s, i) => {
      const label = Array.isArray(value) ? `[${i}] (domain ${s.domain})` : `domain ${s.domain}`;
      if (s.weights && s.weights.length !== s.states.length) {
        throw new InputError(`${file}: ${label}: ${s.weights.length} weights for ${s.states.length} states`, { file, item: s.domain });
      }
      entries.push({ domain: s.domain, states: s.states, weights: s.weights ?? null, label, info: { scheme: s.scheme, seed: s.seed, draws: s.draws ?? null } });
    });
  } else {
    for (const [domain, states] of Object.entries(value as Record<string, string[][]>)) {
      entries.push({ domain, states, weights: null, label: `domain ${domain}`, info: { scheme: null, seed: null, draws: null } });
    }
  }
  const byId = new Map(domains.map((d) => [d.id, d]));
  const states = new Map<string, string[][]>();
  const info: Record<string, StatesFileDomainInfo> = {};
  for (const entry of entries) {
    const domain = byId.get(entry.domain);
    if (!domain) {
      throw new InputError(`${file}: ${entry.label}: unknown domain ${JSON.stringify(entry.domain)} (loaded: ${[...byId.keys()].join(', ')})`, {
        file,
        item: entry.domain,
      });
    }
    if (states.has(domain.id)) throw new InputError(`${file}: domain ${domain.id} is listed twice`, { file, item: domain.id });
    if (entry.states.length === 0) throw new InputError(`${file}: ${entry.label}: no states`, { file, item: domain.id });
    const seen = new Map<string, number>();
    const canonical = entry.states.map((state, i) => {
      const where = `${file}: ${entry.label}, state #${i + 1} ${JSON.stringify(state)}`;
      if (new Set(state).size !== state.length) throw new InputError(`${where}: an ID is listed twice`, { file, item: domain.id });
      const check = checkState(domain, state);
      if (!check.ok) throw new InputError(`${where}: ${check.reason}`, { file, item: domain.id });
      const sorted = [...state].sort((a, b) => domain.index.get(a)! - domain.index.get(b)!);
      const key = sorted.join(',');
      const first = seen.get(key);
      if (first !== undefined) throw new InputError(`${where}: the same state as state #${first + 1}`, { file, item: domain.id });
      seen.set(key, i);
      return sorted;
    });
    states.set(domain.id, canonical);
    info[domain.id] = { states: canonical.length, ...entry.info, weights: entry.weights };
  }
  const canonicalJson = JSON.stringify([...states.keys()].sort().map((id) => [id, states.get(id)]));
  return { file, states, sha256: createHash('sha256').update(canonicalJson).digest('hex'), domains: info };
}

export function loadStatesFile(file: string, domains: readonly Domain[]): StatesFile {
  return parseStatesFile(readUtf8File(file, (reason) => `${file}: cannot read states file (${reason})`), file, domains);
}
