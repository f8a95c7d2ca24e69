/**
 * Anthropic Messages wire format, as pure functions (no SDK at runtime). Structured output is, by
 * default, the API's native JSON-schema output (`output_config.format: {type: 'json_schema',
 * schema}`): the answer is the text of the reply, constrained to the schema, and it works with
 * thinking. The alternative (`structured_output: 'strict_tool'`) is one tool with `strict: true`
 * whose input is the answer; it is forced by `tool_choice` only when thinking is off, because the
 * API refuses forced tool use together with thinking.
 */
import type Anthropic from '@anthropic-ai/sdk';
import { batchItemNotRun, classifyAnthropicErrorType, redactSecrets } from './classify';
import { outputAllowance, type ModelSettings } from './model-settings';
import { ProviderError, type CompletionRequest, type CompletionResult } from '../../provider/contract';

/** What the message body needs from the model settings. */
export type MessageBodySettings = Pick<
  ModelSettings,
  'structured_output' | 'thinking' | 'effort' | 'output_cap' | 'context_window' | 'provider' | 'model'
>;

/** Settings for a model nothing is known about: native JSON output, thinking explicitly off. */
export const PLAIN_ANTHROPIC_SETTINGS: MessageBodySettings = {
  provider: 'anthropic',
  model: '',
  structured_output: 'native_json_schema',
  thinking: 'disabled',
  effort: null,
  output_cap: null,
  context_window: null,
};

type MessageBody = Anthropic.MessageCreateParamsNonStreaming;

/**
 * Body of `POST /v1/messages`. Example (abridged, default settings): `{ model, max_tokens, system,
 * messages: [{ role: 'user', content }], thinking: { type: 'disabled' }, output_config: { format:
 * { type: 'json_schema', schema } } }`. Thinking is always sent explicitly (`disabled`, `adaptive`
 * or `enabled` with a budget) and effort when set. No sampling fields: the SDK's Messages
 * parameters (1.14) have none.
 */
export function anthropicMessageBody(model: string, req: CompletionRequest, settings: MessageBodySettings = PLAIN_ANTHROPIC_SETTINGS): MessageBody {
  const allowance = outputAllowance({ ...settings, model }, req.maxOutputTokens, req.system.length + req.user.length);
  const body: MessageBody = {
    model,
    max_tokens: allowance,
    system: req.system,
    messages: [{ role: 'user', content: req.user }],
  };
  const thinking = settings.thinking;
  if (thinking === 'disabled') body.thinking = { type: 'disabled' };
  else if (thinking === 'adaptive') body.thinking = { type: 'adaptive' };
  else if (thinking !== null) body.thinking = { type: 'enabled', budget_tokens: thinking.budget_tokens };
  const thinkingOn = thinking !== null && thinking !== 'disabled';
  const outputConfig: Anthropic.OutputConfig = {};
  if (settings.effort !== null) outputConfig.effort = settings.effort as Anthropic.OutputConfig['effort'];
  if (settings.structured_output === 'strict_tool') {
    body.tools = [
      {
        name: req.schemaName,
        description: 'Submit your answer. The input of this tool is your complete answer.',
        input_schema: req.jsonSchema as Anthropic.Tool.InputSchema,
        strict: true,
      },
    ];
    body.tool_choice = thinkingOn ? { type: 'auto' } : { type: 'tool', name: req.schemaName };
  } else {
    outputConfig.format = { type: 'json_schema', schema: req.jsonSchema };
  }
  if (Object.keys(outputConfig).length > 0) body.output_config = outputConfig;
  return body;
}

interface ErrorLike {
  type?: unknown;
  message?: unknown;
  details?: { error_code?: unknown } | null;
}

interface ContentBlockLike {
  type: string;
  name?: string;
  input?: unknown;
  text?: string;
}

/**
 * Maps a Message to a CompletionResult:
 * - `text`: with a strict tool, the input of the `tool_use` block named `schemaName` (any tool_use
 *   block when null, as for batch results, where only the one tool was offered), serialised with
 *   JSON.stringify (so the collector validates it like any other JSON text); otherwise — native JSON
 *   output, a refusal, a truncated answer — the text blocks joined with newlines (thinking blocks are
 *   not part of the answer);
 * - `finishReason`: `stop_reason` as sent (`tool_use`, `max_tokens`, `refusal`, …);
 * - `refusal`: for `stop_reason: 'refusal'`, the explanation from `stop_details`, else the text, else a fixed note;
 * - `usage.inputTokens` counts cache writes and reads too (`input_tokens` excludes them);
 *   `cachedInputTokens` is `cache_read_input_tokens`, `reasoningTokens` is
 *   `output_tokens_details.thinking_tokens` (part of `output_tokens`).
 */
export function anthropicResult(
  message: Anthropic.Message,
  schemaName: string | null,
  httpStatus: number | null,
  requestId: string | null,
): CompletionResult {
  const blocks: ContentBlockLike[] = Array.isArray(message?.content) ? (message.content as ContentBlockLike[]) : [];
  const tool = blocks.find((b) => b.type === 'tool_use' && (schemaName === null || b.name === schemaName));
  const prose = blocks
    .filter((b) => b.type === 'text' && typeof b.text === 'string')
    .map((b) => b.text as string)
    .join('\n');
  const text = tool && tool.input !== undefined ? JSON.stringify(tool.input) : prose;
  const stopReason = message?.stop_reason ?? null;
  let refusal: string | null = null;
  if (stopReason === 'refusal') {
    const explanation = (message.stop_details as { explanation?: unknown } | null | undefined)?.explanation;
    refusal = typeof explanation === 'string' && explanation !== '' ? explanation : prose !== '' ? prose : 'refused (stop_reason "refusal")';
  }
  // Both counts or no usage (cost unknown): missing ones counted as 0 priced the call at $0.
  const reported = message?.usage;
  const u = reported && typeof reported.input_tokens === 'number' && typeof reported.output_tokens === 'number' ? reported : null;
  const thinkingTokens = (u?.output_tokens_details as { thinking_tokens?: unknown } | null | undefined)?.thinking_tokens;
  const usage = u
    ? {
        inputTokens: u.input_tokens + (u.cache_creation_input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0),
        outputTokens: u.output_tokens,
        ...(typeof u.cache_read_input_tokens === 'number' && u.cache_read_input_tokens > 0 ? { cachedInputTokens: u.cache_read_input_tokens } : {}),
        ...(typeof thinkingTokens === 'number' ? { reasoningTokens: thinkingTokens } : {}),
      }
    : null;
  return {
    text,
    finishReason: stopReason,
    refusal,
    modelVersion: typeof message?.model === 'string' ? message.model : null,
    usage,
    httpStatus,
    requestId,
  };
}

/**
 * One line of a Message Batch result file → its custom_id and outcome. `succeeded` gives a
 * CompletionResult (no per-item HTTP status or request id); `errored` is classified by the error
 * type (`overloaded_error` → server_error, `rate_limit_error` → rate_limit, …); `expired` →
 * timeout; `canceled` → server_error (the request never ran, so it may be sent again).
 */
export function anthropicBatchItemOutcome(item: unknown, secrets: readonly string[]): { customId: string; outcome: CompletionResult | ProviderError } {
  const it = item as { custom_id?: unknown; result?: { type?: unknown; message?: unknown; error?: unknown } } | null;
  if (!it || typeof it.custom_id !== 'string' || !it.result || typeof it.result.type !== 'string') {
    throw new ProviderError('anthropic: unreadable batch result line', 'server_error');
  }
  const customId = it.custom_id;
  switch (it.result.type) {
    case 'succeeded':
      return { customId, outcome: anthropicResult(it.result.message as Anthropic.Message, null, null, null) };
    case 'errored': {
      const body = it.result.error as { error?: ErrorLike; type?: unknown; message?: unknown; details?: unknown } | undefined;
      const inner: ErrorLike | undefined = body?.error ?? (body as ErrorLike | undefined);
      const type = typeof inner?.type === 'string' ? inner.type : null;
      const message = typeof inner?.message === 'string' ? redactSecrets(inner.message, secrets) : '';
      const errorCode = typeof inner?.details?.error_code === 'string' ? inner.details.error_code : null;
      const errorClass = classifyAnthropicErrorType(type, message, errorCode);
      return {
        customId,
        outcome: new ProviderError(`anthropic batch item ${errorCode ?? type ?? 'error'}: ${message}`, errorClass, errorCode ?? type ? { code: (errorCode ?? type)! } : {}),
      };
    }
    case 'expired':
      return { customId, outcome: batchItemNotRun('anthropic', 'expired', 'the request expired before it was processed') };
    case 'canceled':
      return { customId, outcome: batchItemNotRun('anthropic', 'canceled', 'the batch was canceled before this request was processed') };
    default:
      throw new ProviderError(`anthropic: unknown batch result type ${JSON.stringify(it.result.type)}`, 'server_error');
  }
}
