/**
 * The environment variables the SDK constructors read whatever options they are given, kept away
 * from them. Every other option is passed explicitly (openai-provider.ts, anthropic-provider.ts), but
 * these two have no option that turns them off:
 * - `OPENAI_CUSTOM_HEADERS` — node_modules/openai/client.js, the constructor: "Name: value" lines
 *   merged into `defaultHeaders`, which the request builder applies *after* the key
 *   (`buildHeaders([…, authHeaders, defaultHeaders, …])`), so an `Authorization:` line replaces the key;
 * - `ANTHROPIC_CUSTOM_HEADERS` — node_modules/@anthropic-ai/sdk/client.js, the constructor, the same
 *   (Claude Code and gateways set it to carry a gateway's credentials).
 * Read behind our back they sent, for example, the headers of an OpenAI gateway to an
 * `openai-compatible:` server of someone else, and a gateway token to api.anthropic.com in place of
 * ANTHROPIC_API_KEY: against "a key goes only to the host it belongs to" (lib/collect/providers/README.md).
 */

import type { ProviderName } from '../../provider/contract';

/** The variables hidden from the SDK constructors (see the module comment). */
export const SDK_IGNORED_ENV: readonly string[] = ['OPENAI_CUSTOM_HEADERS', 'ANTHROPIC_CUSTOM_HEADERS'];

/**
 * Runs `build` (an SDK client constructor: synchronous, so nothing else runs meanwhile) with the
 * variables of `SDK_IGNORED_ENV` absent from `process.env`, and puts them back afterwards, thrown or not.
 */
export function withoutSdkEnv<T>(build: () => T, env: NodeJS.ProcessEnv = process.env): T {
  const saved: Array<[string, string]> = [];
  for (const name of SDK_IGNORED_ENV) {
    const value = env[name];
    if (value !== undefined) saved.push([name, value]);
    delete env[name];
  }
  try {
    return build();
  } finally {
    for (const [name, value] of saved) env[name] = value;
  }
}

/** Which models' SDK reads each variable of SDK_IGNORED_ENV. */
const READ_BY: Record<string, readonly ProviderName[]> = {
  OPENAI_CUSTOM_HEADERS: ['openai', 'openai-compatible'],
  ANTHROPIC_CUSTOM_HEADERS: ['anthropic'],
};

/**
 * One note for each variable of SDK_IGNORED_ENV that is set while a model of its SDK is in the run,
 * printed once before it: nothing else would tell a user whose gateway needs those headers why it
 * refuses the calls (an auth error), and the models file has no header option to send them instead.
 * @example
 * ignoredSdkEnvNotes(['anthropic'], { ANTHROPIC_CUSTOM_HEADERS: 'X-Gw: t' })[0]?.startsWith('ANTHROPIC_CUSTOM_HEADERS is set and is not sent'); // => true
 * ignoredSdkEnvNotes(['openai', 'simulated'], { ANTHROPIC_CUSTOM_HEADERS: 'X-Gw: t' }); // => []
 */
export function ignoredSdkEnvNotes(providers: Iterable<ProviderName>, env: NodeJS.ProcessEnv): string[] {
  const inRun = new Set(providers);
  return SDK_IGNORED_ENV.filter((name) => env[name] !== undefined && READ_BY[name]!.some((p) => inRun.has(p))).map(
    (name) =>
      `${name} is set and is not sent: kstbench ignores it, because its headers could replace the API key or carry a gateway's credentials to another host; ` +
      'a gateway that needs them will refuse the calls (an auth error), and there is no header option: a gateway whose token is its key takes it through api_key_env in --models-file',
  );
}
