import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeRedactor, secretValues } from '../../lib/collect/redact';

const KEY = 'sk-proj-AbC123xyz789';
const TOKEN = 'ghp_0123456789abcdef';

test('secretValues: names with KEY/TOKEN/SECRET/PASSWORD (any case) and values of 8+ characters, longest first', () => {
  const env = {
    OPENAI_API_KEY: KEY,
    GITHUB_TOKEN: TOKEN,
    db_password: 'hunter2!', // exactly 8 characters: counts
    MY_SECRET: 'short', // 5 characters: would match ordinary text
    HOME: '/home/someone/with/a/long/path',
    EMPTY_KEY: undefined,
  };
  assert.deepEqual(secretValues(env), [
    { name: 'OPENAI_API_KEY', value: KEY }, // 20 characters
    { name: 'GITHUB_TOKEN', value: TOKEN }, // 20 characters (stable sort keeps env order)
    { name: 'db_password', value: 'hunter2!' },
  ]);
});

test('makeRedactor replaces every occurrence of each secret with its variable name', () => {
  const redact = makeRedactor({ OPENAI_API_KEY: KEY, GITHUB_TOKEN: TOKEN, PATH: '/usr/bin' });
  assert.equal(
    redact(`401: Incorrect API key provided: ${KEY}. Retry with ${KEY} at https://x/?t=${TOKEN} from /usr/bin`),
    '401: Incorrect API key provided: [REDACTED:OPENAI_API_KEY]. Retry with [REDACTED:OPENAI_API_KEY] at https://x/?t=[REDACTED:GITHUB_TOKEN] from /usr/bin',
  );
  assert.equal(redact('nothing secret here'), 'nothing secret here');
});

test('a secret that JSON escapes differently is also caught in its escaped form (as it appears in a JSONL line)', () => {
  const value = 'pa"ss\\word42';
  const redact = makeRedactor({ PROXY_PASSWORD: value });
  const line = JSON.stringify({ error: `proxy rejected ${value}` });
  assert.equal(line, '{"error":"proxy rejected pa\\"ss\\\\word42"}');
  assert.equal(redact(line), '{"error":"proxy rejected [REDACTED:PROXY_PASSWORD]"}');
  assert.equal(redact(`raw ${value}`), 'raw [REDACTED:PROXY_PASSWORD]');
});

test('the longer secret is replaced first, so a key that contains another is not left half-visible', () => {
  const redact = makeRedactor({ SHORT_KEY: 'abcdefgh', LONG_KEY: 'abcdefgh-ijklmnop' });
  assert.equal(redact('k=abcdefgh-ijklmnop; j=abcdefgh'), 'k=[REDACTED:LONG_KEY]; j=[REDACTED:SHORT_KEY]');
});

test('no secret in the environment: the text is returned unchanged', () => {
  const redact = makeRedactor({ HOME: '/root', API_KEY: '1234567' });
  assert.equal(redact('key 1234567 is too short to be treated as secret'), 'key 1234567 is too short to be treated as secret');
});
