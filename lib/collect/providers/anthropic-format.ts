/**
 * Anthropic Messages wire format, as pure functions (no SDK at runtime). Structured output is a
 * single forced tool: the tool's `input_schema` is the answer schema and `tool_choice` names it, so
 * the model must answer by "calling" it; the tool input is the answer object.
 */
import type Anthropic from '@anthropic-ai/sdk';
import { classifyAnthropicErrorType, redactSecrets } from './classify';
import { ProviderError, type CompletionRequest, type CompletionResult } from './types';

/**
 * Body of `POST /v1/messages`. Example (abridged): `{ model, max_tokens, system, messages: [{ role:
 * 'user', content }], tools: [{ name, description, input_schema }], tool_choice: { type: 'tool', name } }`.
 */
export function anthropicMessageBody(model: string, req: CompletionRequest): Anthropic.MessageCreateParamsNonStreaming {
  return {
    model,
    max_tokens: req.maxOutputTokens,
    system: req.system,
    messages: [{ role: 'user', content: req.user }],
    tools: [
      {
        name: req.schemaName,
        description: 'Submit your answer. The input of this tool is your complete answer.',
        input_schema: req.jsonSchema as Anthropic.Tool.InputSchema,
      },
    ],
    tool_choice: { type: 'tool', name: req.schemaName },
  };
}

interface ContentBlockLike {
  type: string;
  name?: string;
  input?: unknown;
  text?: string;
}

/**
 * Maps a Message to a CompletionResult:
 * - `text`: the input of the `tool_use` block named `schemaName` (any tool_use block when null, as
 *   for batch results, where only the one forced tool was offered), serialised with JSON.stringify (so
 *   the collector validates it like any other JSON text); when there is no such block (a refusal,
 *   a truncated answer, a gateway that ignored the tool), the text blocks joined with newlines;
 * - `finishReason`: `stop_reason` as sent (`tool_use`, `max_tokens`, `refusal`, …);
 * - `refusal`: for `stop_reason: 'refusal'`, the explanation from `stop_details`, else the text, else a fixed note;
 * - `usage.inputTokens` counts cache writes and reads too (`input_tokens` excludes them).
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
  const u = message?.usage;
  const usage = u
    ? {
        inputTokens: (u.input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0),
        outputTokens: u.output_tokens ?? 0,
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
      const body = it.result.error as { error?: { type?: unknown; message?: unknown }; type?: unknown; message?: unknown } | undefined;
      const inner = body?.error ?? body;
      const type = typeof inner?.type === 'string' ? inner.type : null;
      const message = typeof inner?.message === 'string' ? redactSecrets(inner.message, secrets) : '';
      const errorClass = classifyAnthropicErrorType(type, message);
      return {
        customId,
        outcome: new ProviderError(`anthropic batch item ${type ?? 'error'}: ${message}`, errorClass, type ? { code: type } : {}),
      };
    }
    case 'expired':
      return { customId, outcome: new ProviderError('anthropic batch item expired before it was processed', 'timeout', { code: 'expired' }) };
    case 'canceled':
      return { customId, outcome: new ProviderError('anthropic batch item was canceled before it was processed', 'server_error', { code: 'canceled' }) };
    default:
      throw new ProviderError(`anthropic: unknown batch result type ${JSON.stringify(it.result.type)}`, 'server_error');
  }
}
