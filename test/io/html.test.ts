import assert from 'node:assert/strict';
import test from 'node:test';
import { escapeHtml } from '../../lib/io/html';

test('escapeHtml replaces each of the five markup characters by its entity', () => {
  assert.equal(escapeHtml('&'), '&amp;');
  assert.equal(escapeHtml('<'), '&lt;');
  assert.equal(escapeHtml('>'), '&gt;');
  assert.equal(escapeHtml('"'), '&quot;');
  assert.equal(escapeHtml("'"), '&#39;');
  assert.equal(escapeHtml('<a href="x">Tom & Jerry\'s</a>'), '&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;');
});

test('escapeHtml leaves other text alone and escapes an existing entity again (text, not markup)', () => {
  assert.equal(escapeHtml('Δ ≥ 0.5 — “quoted”'), 'Δ ≥ 0.5 — “quoted”');
  assert.equal(escapeHtml('&amp;'), '&amp;amp;');
  assert.equal(escapeHtml(''), '');
});
