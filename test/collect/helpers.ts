import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CompletionRequest, CompletionResult, Provider } from '../../lib/provider/contract';
import { ProviderError, type TransportErrorClass } from '../../lib/provider/contract';

export function tempDir(prefix = 'kstbench-collect-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/**
 * Two tiny domains written to a temp dir:
 *  tiny-a: A → B, A → C  (states ∅, A, AB, AC, ABC = 5)
 *  tiny-b: X → Y          (states ∅, X, XY = 3)
 * so the full design has 8 states × conditions × models × orders cells.
 */
export function writeTinyDomains(dir = tempDir('kstbench-domains-')): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'tiny-a.json'),
    JSON.stringify({
      id: 'tiny-a',
      title: 'Tiny A',
      source: 'test fixture',
      components: [
        { id: 'A', description: 'Add two whole numbers.' },
        { id: 'B', description: 'Add three whole numbers.' },
        { id: 'C', description: 'Subtract two whole numbers.' },
      ],
      prerequisites: [
        ['A', 'B'],
        ['A', 'C'],
      ],
    }),
  );
  writeFileSync(
    join(dir, 'tiny-b.json'),
    JSON.stringify({
      id: 'tiny-b',
      title: 'Tiny B',
      source: 'test fixture',
      components: [
        { id: 'X', description: 'Read a number line.' },
        { id: 'Y', description: 'Mark a fraction on a number line.' },
      ],
      prerequisites: [['X', 'Y']],
    }),
  );
  return dir;
}

/** A domain of `n` unrelated components (2^n states), for larger designs. */
export function writeFreeDomain(dir: string, id: string, n: number): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, `${id}.json`),
    JSON.stringify({
      id,
      title: `Free ${id}`,
      source: 'test fixture',
      components: Array.from({ length: n }, (_, i) => ({ id: `${id}-${i + 1}`, description: `Task number ${i + 1} of ${id}.` })),
      prerequisites: [],
    }),
  );
}

/** A schema-valid answer recommending position 1 (plus an empty graph for P1). */
export function answerPosition1(req: Pick<CompletionRequest, 'schemaName'>): string {
  const body: Record<string, unknown> = {
    recommendations: [{ position: 1, justification: 'first listed component' }],
    no_recommendation_reason: null,
  };
  if (req.schemaName.includes('graph')) body.prerequisites = [];
  return JSON.stringify(body);
}

export function okResult(text: string, usage = { inputTokens: 1000, outputTokens: 200 }): CompletionResult {
  return { text, finishReason: 'stop', refusal: null, modelVersion: 'stub-1', usage, httpStatus: 200, requestId: 'req-1' };
}

export type Behaviour = (req: CompletionRequest, callForRun: number, callOverall: number) => CompletionResult | Promise<CompletionResult>;

/** A stub provider that records every call per run ID and answers through `behaviour`. */
export function stubProvider(spec: string, behaviour: Behaviour, simulated = false) {
  const calls = new Map<string, number>();
  let overall = 0;
  const [provider, ...rest] = spec.split(':');
  const p: Provider & { calls: Map<string, number>; total(): number } = {
    provider: provider as Provider['provider'],
    model: rest.join(':'),
    simulated,
    calls,
    total: () => overall,
    async complete(req) {
      overall += 1;
      const n = (calls.get(req.runId) ?? 0) + 1;
      calls.set(req.runId, n);
      return behaviour(req, n, overall);
    },
  };
  return p;
}

export function providerError(errorClass: TransportErrorClass, message: string, info: ProviderError['info'] = {}): ProviderError {
  return new ProviderError(message, errorClass, info);
}

/** A price table with one priced model. */
export function writePrices(dir: string): string {
  const file = join(dir, 'prices.json');
  writeFileSync(
    file,
    JSON.stringify({ models: { 'openai:stub': { input: 2, output: 10, batch_discount: 0.5 } }, providers: { simulated: { input: 0, output: 0 } } }),
  );
  return file;
}

export function readLines(file: string): any[] {
  const { readFileSync } = require('node:fs') as typeof import('node:fs');
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l));
}

/**
 * Parameters of a collect run over the tiny domains with one stub model (`openai:stub`, priced by
 * writePrices): all four conditions, two orders, seed 42. `extra` overrides any field.
 */
export function stubCollectParams(out: string, domainsDir: string, extra: Partial<import('../../lib/collect/collect').CollectParams> = {}): import('../../lib/collect/collect').CollectParams {
  return {
    domainsDir,
    models: ['openai:stub'],
    outDir: out,
    conditions: ['P0', 'P1', 'P2', 'P3'],
    orders: 2,
    concurrency: 3,
    maxOutputTokens: 16000,
    timeoutMs: 1000,
    maxRetries: 5,
    seed: '42',
    pricesFile: writePrices(tempDir()),
    ...extra,
  };
}
