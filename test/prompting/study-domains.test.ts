import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { coverRelation, enumerateStates, loadDomainDir, presentationOrders } from '../../lib/kst';
import { buildPrompt, CONDITIONS, promptHash } from '../../lib/prompting';

// Runs over the real study domains (data/raw/domains) once they are present: every state, condition
// and presentation order, i.e. the 400 distinct prompts of the study design (50 states × 4 × 2).
const dir = join(__dirname, '..', '..', 'data', 'raw', 'domains');

test('study domains: every prompt builds, shows no canonical ID, and lists the right structure', (t) => {
  if (!existsSync(dir)) {
    t.skip('data/raw/domains not present');
    return;
  }
  const hashes = new Set<string>();
  let prompts = 0;
  for (const domain of loadDomainDir(dir)) {
    const states = enumerateStates(domain);
    const covers = coverRelation(domain).length;
    const escaped = domain.ids.map((id) => id.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&'));
    const idToken = new RegExp(`(^|[^A-Za-z0-9_.-])(${escaped.join('|')})(?=$|[^A-Za-z0-9_-])`);
    for (const presentation of presentationOrders(domain, 2)) {
      for (const state of states) {
        for (const condition of CONDITIONS) {
          const p = buildPrompt(domain, state, condition, presentation);
          // Descriptions and the title are free text written by the domain authors; everything the
          // prompt adds around them must be free of canonical IDs.
          const generated = p.user
            .split('\n')
            .filter((line) => !/^\d+\. /.test(line) && !line.startsWith('Topic: '))
            .join('\n');
          const match = idToken.exec(`${p.system}\n${generated}\n${JSON.stringify(p.jsonSchema)}`);
          assert.equal(match, null, `${domain.id} ${condition}: canonical ID "${match?.[2]}" in the prompt`);
          const lines = p.user.split('\n');
          const listed = lines.filter((line) => /^\d+\. /.test(line)).length;
          assert.equal(listed, domain.ids.length, `${domain.id}: every component listed once`);
          if (condition === 'P2') assert.equal(lines.filter((l) => /^\d+ -> \d+$/.test(l)).length, covers);
          if (condition === 'P3') assert.equal(lines.filter((l) => l.startsWith('- {')).length, states.length);
          hashes.add(promptHash(p));
          prompts++;
        }
      }
    }
  }
  assert.equal(hashes.size, prompts, 'all prompts of the design are distinct');
});
