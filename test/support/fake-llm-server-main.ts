/**
 * Runs the fake LLM server as its own process, for tests that spawn the CLI (and may kill it with
 * SIGKILL) against it:
 *
 *   node --require ./scripts/test-runner/hook.js test/support/fake-llm-server-main.ts [--plan JSON | --plan-file FILE | --handler MODULE]
 *        [--api-key KEY] [--batch-polls N] [--record FILE] [--models JSON] [--gemini]
 *
 * Prints the base URL (`http://127.0.0.1:<port>`) as the first stdout line once listening; runs until
 * SIGTERM/SIGINT. The plan may also come from the FAKE_LLM_PLAN environment variable. A plan is a
 * FakePlan (`{"kind":"json","content":"{…}"}`), an array of FakePlans (answered in call order, the
 * last one repeating), or `{"sequence":[…],"then":{…}}`. `--handler` names a module exporting
 * `handler` (or default) of type FakeHandler, for answers computed from the request. `--record`
 * appends one JSON line per HTTP request (index, method, path, api, body) to FILE. `--models` turns on
 * request validation like the real APIs (`{"gpt-4o": {"maxOutputTokens": 16384}, …}`, see FakeModel);
 * `--gemini` refuses type arrays in response schemas, as Gemini's OpenAI-compatible endpoint does.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { sequence, startFakeLlmServer, type FakeHandler, type FakeModel, type FakePlan } from './fake-llm-server';

/** Turns the JSON plan forms into a handler. */
export function handlerFromPlan(plan: unknown): FakeHandler {
  if (Array.isArray(plan)) return sequence(plan as FakePlan[]);
  if (plan && typeof plan === 'object' && 'sequence' in plan) {
    const p = plan as { sequence: FakePlan[]; then?: FakePlan };
    return sequence(p.sequence, p.then);
  }
  if (plan && typeof plan === 'object' && 'kind' in plan) return () => plan as FakePlan;
  throw new Error(`fake-llm-server: unrecognised plan ${JSON.stringify(plan)}`);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      plan: { type: 'string' },
      'plan-file': { type: 'string' },
      handler: { type: 'string' },
      'api-key': { type: 'string' },
      'batch-polls': { type: 'string' },
      record: { type: 'string' },
      models: { type: 'string' },
      gemini: { type: 'boolean' },
    },
    strict: true,
  });
  let handler: FakeHandler | undefined;
  if (values.handler) {
    const mod = require(resolve(values.handler)) as { handler?: FakeHandler; default?: FakeHandler };
    handler = mod.handler ?? mod.default;
    if (typeof handler !== 'function') throw new Error(`fake-llm-server: ${values.handler} exports no handler`);
  } else {
    const text = values.plan ?? (values['plan-file'] ? readFileSync(values['plan-file'], 'utf8') : process.env['FAKE_LLM_PLAN']);
    if (text !== undefined) handler = handlerFromPlan(JSON.parse(text));
  }
  const record = values.record;
  const server = await startFakeLlmServer({
    ...(handler ? { handler } : {}),
    ...(values['api-key'] ? { apiKey: values['api-key'] } : {}),
    ...(values['batch-polls'] ? { batchPollsBeforeDone: Number(values['batch-polls']) } : {}),
    ...(values.models ? { models: JSON.parse(values.models) as Record<string, FakeModel> } : {}),
    ...(values.gemini ? { geminiDialect: true } : {}),
    ...(record
      ? { onRequest: (r) => appendFileSync(record, JSON.stringify({ index: r.index, method: r.method, path: r.path, api: r.api, body: r.body }) + '\n') }
      : {}),
  });
  process.stdout.write(`${server.baseUrl}\n`);
  const stop = () => {
    void server.close().then(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

if (require.main === module) {
  main().catch((err) => {
    process.stderr.write(`fake-llm-server: ${(err as Error).message}\n`);
    process.exit(1);
  });
}
