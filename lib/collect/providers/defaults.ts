/** Default API endpoints (SDK base URLs: OpenAI's includes the `/v1` prefix, Anthropic's does not). */
export const DEFAULT_OPENAI_BASE_URL = 'https://api.openai.com/v1';
export const DEFAULT_ANTHROPIC_BASE_URL = 'https://api.anthropic.com';

/** Key sent to OpenAI-compatible servers that need none (Ollama, llama.cpp); the SDK insists on some value. */
export const PLACEHOLDER_API_KEY = 'no-key-needed';
