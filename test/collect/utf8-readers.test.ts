/**
 * The collector's readers of user files decode them as strict UTF-8 (lib/io/read.ts): a byte that is
 * not UTF-8 is refused with FILE:LINE and its offset, where `readFileSync(file, 'utf8')` read it as
 * U+FFFD and went on (into a price, a model name, a state's ID, a record).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadPriceTable } from '../../lib/collect/prices';
import { defaultCatalogueFile, loadCatalogue } from '../../lib/collect/providers/catalogue';
import { loadModelsFile } from '../../lib/collect/providers/endpoints';
import { loadStatesFile } from '../../lib/collect/states-file';
import { readCompleted, repairTail } from '../../lib/collect/store';
import { assertRefusedAsInvalidUtf8, tempDir, writeWithInvalidByte } from '../support/files';

const dir = tempDir('kstbench-collect-utf8-');

test('the model catalogue, the price table, a --models-file and a --states file: a 0xFF byte is refused with FILE:LINE', () => {
  const shipped = readFileSync(defaultCatalogueFile(), 'utf8');
  const catalogue = join(dir, 'catalogue.json');
  assertRefusedAsInvalidUtf8(() => loadCatalogue(catalogue), writeWithInvalidByte(catalogue, shipped, '"$comment": "Model'));
  const prices = join(dir, 'prices.json');
  assertRefusedAsInvalidUtf8(() => loadPriceTable(prices), writeWithInvalidByte(prices, shipped, '"$comment": "Model'));
  const models = join(dir, 'models.json');
  assertRefusedAsInvalidUtf8(() => loadModelsFile(models), writeWithInvalidByte(models, '{\n  "models": [{ "spec": "openai-compatible:llama" }]\n}\n', '"openai-compatible:llama'));
  const states = join(dir, 'states.json');
  assertRefusedAsInvalidUtf8(() => loadStatesFile(states, []), writeWithInvalidByte(states, '{\n  "tiny-a": [["A"]]\n}\n', '"tiny-a'));
});

test('records of a collection (resume, dry run, tail repair): a 0xFF byte in a complete line is refused with its line', () => {
  const file = join(dir, 'attempts.jsonl');
  const lines = `${JSON.stringify({ run_id: 'a', status: 'valid' })}\n${JSON.stringify({ run_id: 'b', status: 'valid', raw: 'x' })}\n`;
  const expected = writeWithInvalidByte(file, lines, '"raw":"');
  assertRefusedAsInvalidUtf8(() => readCompleted(file), expected);
  assertRefusedAsInvalidUtf8(() => readCompleted(file, { tolerateTornTail: true }), expected);
  assertRefusedAsInvalidUtf8(() => repairTail(file, join(dir, 'torn.jsonl')), expected);
  // A write torn inside a multibyte character still leaves a fragment that is moved aside, not refused.
  const torn = Buffer.concat([Buffer.from(`${JSON.stringify({ run_id: 'a', status: 'valid' })}\n{"run_id":"b","raw":"`), Buffer.from('é').subarray(0, 1)]);
  const tornFile = join(dir, 'torn-attempts.jsonl');
  writeFileSync(tornFile, torn);
  assert.deepEqual([...readCompleted(tornFile, { tolerateTornTail: true }).keys()], ['a']);
  assert.equal(repairTail(tornFile, join(dir, 'torn.jsonl')).kind, 'torn_moved');
  assert.deepEqual([...readCompleted(tornFile).keys()], ['a']);
});
