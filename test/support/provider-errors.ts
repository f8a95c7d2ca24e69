/**
 * Real provider error answers, as documented or as quoted from live API output, for the fake server
 * to replay (`{ kind: 'error', ...FIXTURE }`). Each cites where the shape comes from. Request ids
 * and account names are replaced by placeholders; everything that decides classification (status,
 * type, code, details, headers) is as published.
 */
import type { FakePlan } from './fake-llm-server';

type ErrorPlan = Extract<FakePlan, { kind: 'error' }>;

const error = (status: number, body: unknown, headers: Record<string, string> = {}): ErrorPlan => ({ kind: 'error', status, body, headers });

/**
 * A routine OpenAI per-minute limit whose message mentions billing (the case issue 9 item 1 saw
 * misread as quota). Body shape and code `rate_limit_exceeded` from
 * https://platform.openai.com/docs/guides/error-codes ("Rate limit reached for requests"); the
 * x-ratelimit-* headers and their duration format (`6m0s`, `20ms`) from
 * https://platform.openai.com/docs/guides/rate-limits#rate-limits-in-headers.
 */
export const OPENAI_RPM_429_MENTIONING_BILLING = error(
  429,
  {
    error: {
      message:
        'Rate limit reached for gpt-5-mini in organization org-XXXX on requests per min (RPM): Limit 500, Used 500, Requested 1. Please try again in 120ms. Visit https://platform.openai.com/account/rate-limits to learn more. You can increase your rate limit by adding a payment method to your account at https://platform.openai.com/account/billing.',
      type: 'requests',
      param: null,
      code: 'rate_limit_exceeded',
    },
  },
  {
    'x-ratelimit-limit-requests': '500',
    'x-ratelimit-remaining-requests': '0',
    'x-ratelimit-reset-requests': '1m30s',
    'x-ratelimit-limit-tokens': '200000',
    'x-ratelimit-remaining-tokens': '150000',
    'x-ratelimit-reset-tokens': '6s',
  },
);

/** OpenAI quota exhaustion: 429 `insufficient_quota` (https://platform.openai.com/docs/guides/error-codes). */
export const OPENAI_INSUFFICIENT_QUOTA = error(429, {
  error: {
    message: 'You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.',
    type: 'insufficient_quota',
    param: null,
    code: 'insufficient_quota',
  },
});

/**
 * Anthropic's monthly spend cap: 429 `rate_limit_error` with `error.details.error_code`
 * `enforced_spend_limit_reached` and no retry-after (the SDK maps it to EnforcedSpendLimitReachedError,
 * a RateLimitError subclass: node_modules/@anthropic-ai/sdk/core/error-classes.js; the table
 * "529, 429, or spend cap" at
 * https://learn.microsoft.com/en-us/microsoft-cloud/dev/dev-proxy/concepts/anthropic-529-overloaded-error).
 */
export const ANTHROPIC_ENFORCED_SPEND_LIMIT = error(429, {
  type: 'error',
  error: {
    type: 'rate_limit_error',
    message: 'Your organization has reached the monthly usage limit of its API tier.',
    details: { error_code: 'enforced_spend_limit_reached' },
  },
  request_id: 'req_placeholder',
});

/** Anthropic contract spend limit: 429 with `details.error_code` `contract_spend_limit_reached` (same SDK source). */
export const ANTHROPIC_CONTRACT_SPEND_LIMIT = error(429, {
  type: 'error',
  error: { type: 'rate_limit_error', message: 'The organization has reached the spend limit of its contract.', details: { error_code: 'contract_spend_limit_reached' } },
  request_id: 'req_placeholder',
});

/**
 * Anthropic workspace spend limit set by the user: 400 `invalid_request_error`, no code (body quoted
 * from live output in anthropics/claude-code#55998).
 */
export const ANTHROPIC_USAGE_LIMIT_400 = error(400, {
  type: 'error',
  error: { type: 'invalid_request_error', message: 'You have reached your specified workspace API usage limits. You will regain access on 2026-06-01 at 00:00 UTC.' },
  request_id: 'req_placeholder',
});

/**
 * Anthropic per-minute limit: 429 `rate_limit_error` with `retry-after` (seconds) and the
 * `anthropic-ratelimit-*` headers (https://platform.claude.com/docs/en/api/rate-limits#response-headers).
 */
export function anthropicRateLimit(resetIso: string): ErrorPlan {
  return error(
    429,
    { type: 'error', error: { type: 'rate_limit_error', message: 'This request would exceed the rate limit for your organization of 50 requests per minute.' }, request_id: 'req_placeholder' },
    {
      'anthropic-ratelimit-requests-limit': '50',
      'anthropic-ratelimit-requests-remaining': '0',
      'anthropic-ratelimit-requests-reset': resetIso,
    },
  );
}

/** Anthropic's ramp limit: 429 with `details.error_code` `ramp_limit_exceeded` — a rate limit, retry after `retry-after` (SDK error-classes.js / shared.d.ts). */
export const ANTHROPIC_RAMP_LIMIT = error(
  429,
  { type: 'error', error: { type: 'rate_limit_error', message: 'Usage is ramping up too fast.', details: { error_code: 'ramp_limit_exceeded' } }, request_id: 'req_placeholder' },
  { 'retry-after': '7' },
);

/** A 503 the server marks as not worth retrying (`x-should-retry: false`, read by both SDKs' shouldRetry). */
export const OPENAI_503_SHOULD_NOT_RETRY = error(
  503,
  { error: { message: 'The engine is currently overloaded, please try again later.', type: 'server_error', param: null, code: null } },
  { 'x-should-retry': 'false' },
);

/**
 * Azure OpenAI's answer to a prompt its content filter blocks: HTTP 400, code `content_filter`,
 * param `prompt` (https://learn.microsoft.com/en-us/azure/ai-services/openai/concepts/content-filter,
 * "Scenario details": the prompt is classified at a filtered category and severity level).
 */
export const AZURE_PROMPT_CONTENT_FILTER_400 = error(400, {
  error: {
    message:
      "The response was filtered due to the prompt triggering Azure OpenAI's content management policy. Please modify your prompt and retry. To learn more about our content filtering policies please read our documentation: https://go.microsoft.com/fwlink/?linkid=2198766",
    type: null,
    param: 'prompt',
    code: 'content_filter',
    status: 400,
  },
});
