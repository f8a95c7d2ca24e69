/** The model catalogue (config/models.json): validated, checked against the installed SDKs, snapshots, warnings. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { catalogueWarnings, loadCatalogue, lookupModel, snapshotFamily } from '../../../lib/collect/providers/catalogue';
import { estimateCost, loadPriceTable } from '../../../lib/collect/prices';

test('item 4: the catalogue validates, its IDs exist in the installed SDKs, snapshots resolve to their family, unknown models warn', () => {
  const cat = loadCatalogue();
  const nm = join(__dirname, '..', '..', '..', 'node_modules');
  const sdkOpenAI = readFileSync(join(nm, 'openai', 'resources', 'shared.d.ts'), 'utf8');
  const sdkAnthropic = readFileSync(join(nm, '@anthropic-ai', 'sdk', 'resources', 'messages', 'messages.d.ts'), 'utf8');
  for (const [spec, entry] of Object.entries(cat.models)) {
    const id = spec.slice(spec.indexOf(':') + 1);
    const source = entry.provider === 'openai' ? sdkOpenAI : sdkAnthropic;
    assert.equal(source.includes(`'${id}'`), entry.in_sdk.value, `${spec}: in_sdk says ${entry.in_sdk.value}`);
    for (const fact of [entry.api, entry.max_output_tokens, entry.prices, entry.params]) assert.ok(fact.as_of && fact.source, spec);
  }
  assert.equal(snapshotFamily('gpt-4o-2024-08-06'), 'gpt-4o');
  assert.equal(snapshotFamily('claude-haiku-4-5-20251001'), 'claude-haiku-4-5');
  assert.equal(snapshotFamily('gpt-4o'), null);
  assert.equal(lookupModel(cat, 'openai:gpt-4o-2024-08-06')?.key, 'openai:gpt-4o');
  assert.equal(lookupModel(cat, 'anthropic:claude-haiku-4-5-20251001')?.via, 'snapshot');
  assert.match(catalogueWarnings(cat, 'openai:gpt-99')[0]!, /not in the model catalogue/);
  assert.match(catalogueWarnings(cat, 'anthropic:claude-sonnet-4-0').join('\n'), /absent from the installed SDK/);
  assert.match(catalogueWarnings(cat, 'anthropic:claude-sonnet-4-5', '2026-12-01T00:00:00Z').join('\n'), /was retired on 2026-11-30/);
  assert.match(catalogueWarnings(cat, 'openai:gpt-5-pro').join('\n'), /Responses API only/);
  // A snapshot is priced at its family's price.
  const table = loadPriceTable();
  assert.deepEqual(estimateCost(table, 'openai:gpt-4o-2024-08-06', { inputTokens: 1e6, outputTokens: 0 }), { usd: 2.5 });
});

