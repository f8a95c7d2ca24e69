import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../../lib/errors';
import { loadPublishedKst, parsePublishedKst } from '../../lib/records/published-kst';
import { loadPublishedPsi, parsePublishedPsi } from '../../lib/records/published-psi';
import { pointerValue } from '../../lib/records/published-claims';

const root = join(__dirname, '..', '..');
const KST = join(root, 'data', 'published', 'kst-benchmark-2026.json');
const PSI = join(root, 'data', 'published', 'psi-2026.json');
const kstJson = () => JSON.parse(readFileSync(KST, 'utf8'));
const parseKst = (doc: unknown) => parsePublishedKst(JSON.stringify(doc), 'k.json');
const rejects = (doc: unknown, pattern: RegExp) =>
  assert.throws(() => parseKst(doc), (e: unknown) => e instanceof InputError && /^k\.json: /.test(e.message) && pattern.test(e.message));

test('a status written into the ledger is rejected: statuses come only from the rule', () => {
  const doc = kstJson();
  doc.claims[3].status = 'match';
  rejects(doc, /claims\[3\].*status/);
});

test('a claim needs exactly one of a counterpart and a reason', () => {
  const neither = kstJson();
  delete neither.claims[0].rebuilt;
  rejects(neither, /needs exactly one of "rebuilt"/);
  const both = kstJson();
  both.claims[0].not_rebuildable = 'because';
  rejects(both, /needs exactly one of "rebuilt"/);
  const badCell = kstJson();
  badCell.claims[0].rebuilt.cell = 'notebooks/04.ipynb'; // no cell id
  rejects(badCell, /claims\[0\]\.rebuilt\.cell/);
});

test('pointers, decimals and ids are checked against the file', () => {
  const dangling = kstJson();
  dangling.claims[0].value = '/table1/rows/9/states';
  rejects(dangling, /\/table1\/rows\/9\/states names no number/);
  const noDecimals = kstJson();
  delete noDecimals.claims[0].decimals;
  rejects(noDecimals, /a number needs "decimals"/);
  const duplicate = kstJson();
  duplicate.claims[1].id = duplicate.claims[0].id;
  rejects(duplicate, /duplicate claim id kst\.table1\.linear-modelling\.components/);
  const typo = kstJson();
  typo.table3.rows[0].exat = 61.3;
  rejects(typo, /table3\.rows\[0\]/);
});

test('unreadable and malformed files name the file', () => {
  assert.throws(() => loadPublishedKst(join(root, 'no-such.json')), /no-such\.json: cannot read \(ENOENT\)/);
  assert.throws(() => parsePublishedPsi('{', 'p.json'), (e: unknown) => e instanceof InputError && /^p\.json:1: not valid JSON/.test(e.message));
});

test('pointerValue follows RFC 6901 escapes and returns undefined for missing paths', () => {
  const doc = { 'a/b': { '~c': [10, 20] } };
  assert.equal(pointerValue(doc, '/a~1b/~0c/1'), 20);
  assert.equal(pointerValue(doc, '/a~1b/x'), undefined);
  assert.equal(pointerValue(doc, '/a~1b/~0c/5'), undefined);
});
