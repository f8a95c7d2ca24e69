import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../../lib/errors';
import { pointerValue } from '../../lib/records/published-claims';
import { loadPublishedPsi, parsePublishedPsi } from '../../lib/records/published-psi';
import { ROOT } from './helpers';

const PSI = join(ROOT, 'data', 'published', 'psi-2026.json');
const psiJson = () => JSON.parse(readFileSync(PSI, 'utf8'));
const rejects = (doc: unknown, pattern: RegExp) =>
  assert.throws(() => parsePublishedPsi(JSON.stringify(doc), 'p.json'), (e: unknown) => e instanceof InputError && /^p\.json: /.test(e.message) && pattern.test(e.message));

test('the shipped PSI published file parses under its schema, with a claims ledger', () => {
  const psi = loadPublishedPsi(PSI);
  assert.ok(psi.claims.length > 40);
  assert.equal(pointerValue(psi, psi.claims.find((x) => x.id === 'psi.selection.chatgpt')!.value), 4);
  assert.equal(psi.design.delta_opt, 0.65);
});

test('PSI-specific fields are checked: types of model maps, booleans, counts, unknown keys', () => {
  const textPsi = psiJson();
  textPsi.table1.psi.ChatGPT = '0.6';
  rejects(textPsi, /table1\.psi\.ChatGPT/);
  const notBoolean = psiJson();
  notBoolean.table5.sd_largest_change = 'yes';
  rejects(notBoolean, /table5\.sd_largest_change/);
  const negativeCount = psiJson();
  negativeCount.table4.selected = -1;
  rejects(negativeCount, /table4\.selected/);
  const extra = psiJson();
  extra.table6.kappa = 0.4;
  rejects(extra, /table6/);
  const missing = psiJson();
  delete missing.scenario_validation;
  rejects(missing, /scenario_validation/);
});
