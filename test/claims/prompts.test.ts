/**
 * lib/claims/prompts.ts: the [KST-2026] §4.2 claim that no prompt held the true outer fringe, checked on
 * recorded prompts. Here on a corpus built like the collector's (every state × P0–P3 × two orders of the
 * tiny fixture domains, each prompt from buildPrompt), then on copies made to leak the answer on purpose:
 * each must fail, with the record named. (The shipped corpus is checked by test/claims/ledger.test.ts,
 * where the claim must match.)
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { CONDITIONS, type Condition } from '../../lib/conditions';
import { buildDomain, enumerateStates, loadDomainDir, outerFringe, presentationOrders } from '../../lib/kst';
import { buildPrompt, idsToPositions } from '../../lib/prompting';
import { canonicalIdsInNoPrompt, fringeInNoPrompt, MASTERED_LINE_PREFIX, presentationsReused, renameDomain, type PromptBuilder, type PromptRecordLike } from '../../lib/claims/prompts';
import { kstClaimRows } from '../../lib/claims/kst';
import { validateResponses } from '../../lib/analysis';
import { loadPublishedKst } from '../../lib/records/published-kst';

const root = join(__dirname, '..', '..');
const domains = loadDomainDir(join(root, 'test', 'fixtures', 'analyze', 'domains'));
/** Two small study domains, whose IDs (EG1, GE3, …) are no words of the prompts' wording. */
const study = loadDomainDir(join(root, 'data', 'raw', 'domains')).filter((d) => d.id === 'equation-to-graph' || d.id === 'graph-to-equation');

/** Every cell's final record as the collector writes it (the fields the check reads). */
function corpus(ds = domains): Array<PromptRecordLike & { status: string }> {
  const out: Array<PromptRecordLike & { status: string }> = [];
  for (const d of ds) {
    for (const presentation of presentationOrders(d, 2)) {
      for (const state of enumerateStates(d)) {
        for (const condition of CONDITIONS) {
          const p = buildPrompt(d, state, condition, presentation);
          out.push({ run_id: `${d.id}.${condition}.o${presentation.order}.${state.join('') || 'none'}`, status: 'valid', model: 'm1', domain: d.id, state, condition, order: presentation.order, presentation_seed: presentation.seed, prompt: { system: p.system, user: p.user } });
        }
      }
    }
  }
  return out;
}

/** The state's outer fringe in the record's positions, as a leaking prompt would print it. */
function fringePositions(r: PromptRecordLike): string {
  const d = domains.find((x) => x.id === r.domain)!;
  return idsToPositions(presentationOrders(d, 2)[r.order! - 1]!, outerFringe(d, r.state!)).join(', ');
}
const withUser = <T extends PromptRecordLike>(r: T, user: string): T => ({ ...r, prompt: { ...r.prompt, user } });

test('a corpus whose prompts are the builder\'s holds: 72 prompts, 16 groups, only the mastered line varies', () => {
  const records = corpus();
  // tiny: 6 states, pair: 3 states; × 4 conditions × 2 orders.
  assert.equal(records.length, (6 + 3) * 8);
  const result = fringeInNoPrompt(records, domains);
  assert.deepEqual([result.holds, result.prompts, result.groups], [true, 72, 16], result.detail);
  assert.deepEqual([fringeInNoPrompt(records, domains, { compareWithBuilder: false }).holds], [true]);
});

test('one prompt that names its fringe fails, by both checks, and the record is named', () => {
  const records = corpus();
  const k = records.findIndex((r) => r.domain === 'tiny' && r.condition === 'P2' && r.state!.length === 1);
  records[k] = withUser(records[k]!, `${records[k]!.prompt!.user}The admissible next steps are ${fringePositions(records[k]!)}.\n`);
  const built = fringeInNoPrompt(records, domains);
  assert.equal(built.holds, false);
  // Not the builder's text, so it is compared across states, where it says more than the mastered set.
  assert.match(built.detail, new RegExp(`^final record ${k + 1} \\(${records[k]!.run_id}\\): besides the mastered line its text differs`));
  const alone = fringeInNoPrompt(records, domains, { compareWithBuilder: false });
  assert.equal(alone.holds, false);
  assert.match(alone.detail, new RegExp(`^final record ${k + 1} .*besides the mastered line its text differs .*says more about its state than the mastered set`));
});

test('a builder that leaks every fringe fails the comparison across states, with no builder to compare with', () => {
  const leaky = corpus().map((r) => withUser(r, `${r.prompt!.user}Hint: consider ${fringePositions(r) || 'nothing'}.\n`));
  const result = fringeInNoPrompt(leaky, domains, { compareWithBuilder: false });
  assert.equal(result.holds, false);
  assert.match(result.detail, /besides the mastered line its text differs/);
});

test('the fringe put in place of the mastered set, a missing prompt, a foreign presentation or one fringe per group is not shown', () => {
  const records = corpus();
  const k = records.findIndex((r) => r.domain === 'tiny' && r.state!.length === 0);
  const swapped = [...records];
  swapped[k] = withUser(records[k]!, records[k]!.prompt!.user!.replace(/^Components the learner has already mastered:.*$/m, `${MASTERED_LINE_PREFIX} ${fringePositions(records[k]!)}`));
  assert.match(fringeInNoPrompt(swapped, domains, { compareWithBuilder: false }).detail, /the "already mastered" line does not name exactly the state's positions/);

  // What the input cannot show is unavailable, not failed: no records, records without a prompt.
  const { prompt: _dropped, ...bare } = records[3]!;
  const partly = fringeInNoPrompt([...records.slice(0, 3), bare, ...records.slice(4)], domains);
  assert.deepEqual([partly.holds, partly.unavailable !== undefined], [false, true]);
  assert.match(partly.unavailable!, /^1 of 72 final records carry no prompt .*; the 71 that do pass: /);
  assert.match(fringeInNoPrompt([], domains).unavailable!, /^no final records/);
  assert.match(fringeInNoPrompt(records.map(({ prompt: _p, ...r }) => r), domains).unavailable!, /^72 of 72 final records carry no prompt/);
  // …but a leak among the records that do carry one is a leak.
  const leakAndBare: PromptRecordLike[] = [...records.slice(0, 3), bare, ...records.slice(4)];
  leakAndBare[10] = withUser(leakAndBare[10]!, `${leakAndBare[10]!.prompt!.user}Next: ${fringePositions(leakAndBare[10]!)}\n`);
  const leak = fringeInNoPrompt(leakAndBare, domains);
  assert.deepEqual([leak.holds, leak.unavailable], [false, undefined]);
  assert.match(leak.detail, /^final record 11 .*besides the mastered line its text differs/);
  assert.match(fringeInNoPrompt(records, domains.slice(1)).unavailable!, /^final record 1 \(pair\.P0\.o1\.none\): its domain "pair" is not among the domains given/);

  const seeded = [...records];
  seeded[5] = { ...records[5]!, presentation_seed: 'not-this-order' };
  assert.match(fringeInNoPrompt(seeded, domains).detail, /^final record 6 .*presentation seed is not order/);

  // Only the terminal states: every group holds one fringe (the empty one), so nothing is shown.
  const terminal = records.filter((r) => fringePositions(r) === '');
  const flat = fringeInNoPrompt(terminal, domains);
  assert.equal(flat.holds, false);
  assert.match(flat.unavailable!, /share one outer fringe/);
});

test('another builder\'s wording, other system messages, or a group that cannot decide is no leak; a leak in that wording still is', () => {
  // An older wording of every prompt (one sentence edited), as an earlier kstbench or an edited domain would give.
  const older = corpus().map((r) => withUser(r, r.prompt!.user!.replace(/\n/, ' (v0)\n')));
  assert.notEqual(older[0]!.prompt!.user, corpus()[0]!.prompt!.user);
  const fringe = fringeInNoPrompt(older, domains);
  assert.deepEqual([fringe.holds, fringe.unavailable], [true, undefined], fringe.detail);
  assert.match(fringe.detail, /^72 prompts not this version's buildPrompt text \(first: final record 1 \(pair\.P0\.o1\.none\)\), so compared across states only; in 16 .* groups only the mastered line varies$/);
  assert.match(canonicalIdsInNoPrompt(older, domains).unavailable!, /^the recorded prompts are not this version's buildPrompt text \(first: final record 1 /);
  const k = older.findIndex((r) => r.domain === 'tiny' && r.condition === 'P1' && r.state!.length === 1);
  const olderLeak = [...older];
  olderLeak[k] = withUser(older[k]!, `${older[k]!.prompt!.user}Try ${fringePositions(older[k]!)}.\n`);
  assert.match(fringeInNoPrompt(olderLeak, domains).detail, new RegExp(`^final record ${k + 1} .*besides the mastered line its text differs`));
  assert.equal(fringeInNoPrompt(olderLeak, domains).unavailable, undefined);

  // One system message for the `pair` cells, another for `tiny`'s: not shown. Varying with the state within a group: a leak.
  const systems = corpus().map((r) => (r.domain === 'pair' ? { ...r, prompt: { ...r.prompt, system: `${r.prompt!.system} (pair)` } } : r));
  assert.match(fringeInNoPrompt(systems, domains).unavailable!, /^2 different system messages across the \(domain, condition, order\) groups/);
  const bySystem = corpus().map((r) => (r.domain === 'tiny' && r.condition === 'P0' && r.order === 1 ? { ...r, prompt: { ...r.prompt, system: `${r.prompt!.system} Next: ${fringePositions(r)}` } } : r));
  const leakBySystem = fringeInNoPrompt(bySystem, domains);
  assert.deepEqual([leakBySystem.holds, leakBySystem.unavailable], [false, undefined]);
  assert.match(leakBySystem.detail, /besides the mastered line its text differs/);

  // One group (tiny, P0, order 1) left with a single state: it cannot decide, the other 15 do.
  const first = corpus().findIndex((r) => r.domain === 'tiny' && r.condition === 'P0' && r.order === 1);
  const thin = corpus().filter((r, i) => !(r.domain === 'tiny' && r.condition === 'P0' && r.order === 1) || i === first);
  const decided = fringeInNoPrompt(thin, domains);
  assert.deepEqual([decided.holds, decided.groups], [true, 15], decided.detail);
  assert.match(decided.detail, /in 15 \(domain, condition, order\) groups only the mastered line varies \(1 groups whose states share one outer fringe cannot decide and are not counted\)$/);
  // …and a leak in a deciding group still fails beside it.
  const j = thin.findIndex((r) => r.domain === 'pair' && r.condition === 'P2' && r.state!.length === 1);
  thin[j] = withUser(thin[j]!, `${thin[j]!.prompt!.user}Next: ${fringePositions(thin[j]!)}\n`);
  assert.equal(fringeInNoPrompt(thin, domains).holds, false);
});

test('the ledger entry kst.design.fringe-never-in-prompt is rebuilt from the final records (and needs them)', () => {
  const published = loadPublishedKst(join(root, 'data/published/kst-benchmark-2026.json'));
  const only = { ...published, claims: published.claims.filter((c) => c.id === 'kst.design.fringe-never-in-prompt') };
  const lines = corpus().map((r) => ({ run_id: r.run_id, model: 'm1', domain: r.domain, condition: r.condition, order: r.order, state: r.state, status: 'valid', recommended: outerFringe(domains.find((d) => d.id === r.domain)!, r.state!) }));
  const records = validateResponses(lines.map((value, i) => ({ line: i + 1, value })), domains);
  const rows = kstClaimRows({ published: only, records, domains, finalRecords: corpus() });
  assert.deepEqual(rows.map((r) => [r.id, r.status]), [['kst.design.fringe-never-in-prompt', 'match']]);
  const leaked = corpus();
  leaked[0] = withUser(leaked[0]!, `${leaked[0]!.prompt!.user}Answer: ${fringePositions(leaked[0]!)}\n`);
  assert.equal(kstClaimRows({ published: only, records, domains, finalRecords: leaked })[0]!.status, 'differs');
  assert.throws(() => kstClaimRows({ published: only, records, domains }), /fringe-never-in-prompt: needs the final records/);
  // Imported responses: no final records, or records without prompts. The claims the input cannot
  // show are not rebuildable on it, with the reason, never a false differs.
  const prompted = { ...published, claims: published.claims.filter((c) => ['kst.design.fringe-never-in-prompt', 'kst.design.positions-only', 'kst.design.orders-reused', 'kst.collection.truncated'].includes(c.id)) };
  const imported = kstClaimRows({ published: prompted, records, domains, finalRecords: [] });
  assert.deepEqual(imported.map((r) => [r.id, r.status]), prompted.claims.map((c) => [c.id, 'not rebuildable']));
  assert.ok(imported.every((r) => /^cannot be checked on this input: no final records/.test(r.note) && r.computed === ''), JSON.stringify(imported.map((r) => r.note)));
  const unprompted = kstClaimRows({ published: only, records, domains, finalRecords: corpus().map(({ prompt: _p, ...r }) => r) });
  assert.deepEqual(unprompted.map((r) => [r.status, r.note]), [['not rebuildable', 'cannot be checked on this input: 72 of 72 final records carry no prompt (an import records none), so what was sent cannot be checked']]);
  const design = { ...published, claims: published.claims.filter((c) => ['kst.design.positions-only', 'kst.design.orders-reused'].includes(c.id)) };
  const studyLines = corpus(study).map((r) => ({ run_id: r.run_id, model: 'm1', domain: r.domain, condition: r.condition, order: r.order, state: r.state, status: 'valid', recommended: outerFringe(study.find((d) => d.id === r.domain)!, r.state!) }));
  const studyRecords = validateResponses(studyLines.map((value, i) => ({ line: i + 1, value })), study);
  assert.deepEqual(kstClaimRows({ published: design, records: studyRecords, domains: study, finalRecords: corpus(study) }).map((r) => [r.id, r.status]), [['kst.design.positions-only', 'match'], ['kst.design.orders-reused', 'match']]);
});

/** A domain file with IDs that are words or numbers of the prompts' own wording. */
const wordy = (ids: readonly string[]) =>
  buildDomain({ id: 'abc', title: 'Three tasks', source: 'test', components: ids.map((id, i) => ({ id, description: `Task number ${i + 1} of the list` })), prerequisites: [[ids[0]!, ids[1]!]] });

test('§4.3 positions only, asked of the builder: an A/B/C domain whose prompt says "A" passes, a builder that writes an ID fails', () => {
  // The fixture's IDs X, Y, A, B, C are words of their descriptions ("Task X") and of the wording ("A
  // knowledge state is …"): a text search cannot tell them from IDs; renaming the IDs can.
  assert.match(corpus()[0]!.prompt!.user!, /\bTask X\b/);
  assert.match(corpus().find((r) => r.condition === 'P3')!.prompt!.user!, /^A knowledge state is/m);
  const fixture = canonicalIdsInNoPrompt(corpus(), domains);
  assert.equal(fixture.holds, true, fixture.detail);
  assert.match(fixture.detail, /^72 prompts are buildPrompt's text for their cell, and built again with every ID renamed/);
  for (const ids of [['A', 'B', 'C'], ['1', '2', '3']]) {
    const d = wordy(ids);
    assert.equal(canonicalIdsInNoPrompt(corpus([d]), [d]).holds, true, ids.join(''));
  }
  // A builder that writes the first shown component's ID (made the records, so they match it) fails,
  // for word-like and numeric IDs alike, naming the ID.
  const leaky: PromptBuilder = (domain, state, condition, presentation) => {
    const p = buildPrompt(domain, state, condition, presentation);
    return { system: p.system, user: `${p.user}(1 is ${presentation.positions[0]})\n` };
  };
  for (const ids of [['A', 'B', 'C'], ['1', '2', '3'], ['EG1', 'EG2', 'EG3']]) {
    const d = wordy(ids);
    const records = corpus([d]).map((r) => ({ ...r, prompt: leaky(d, r.state!, r.condition as Condition, presentationOrders(d, 2)[r.order! - 1]!) }));
    const result = canonicalIdsInNoPrompt(records, [d], { build: leaky });
    assert.equal(result.holds, false, ids.join(''));
    assert.match(result.detail, new RegExp(`^final record 1 .*: the builder writes component (${ids.join('|')}) of "abc" by its canonical ID \\(built again with the IDs renamed, the prompt shows zqid\\d_\\)`));
  }
  // What the input cannot show: no records, no prompts recorded, a domain not given.
  assert.match(canonicalIdsInNoPrompt([], domains).unavailable!, /^no final records/);
  assert.match(canonicalIdsInNoPrompt(corpus().map(({ prompt: _p, ...r }) => r), domains).unavailable!, /^72 of 72 final records carry no prompt/);
  assert.match(canonicalIdsInNoPrompt(corpus(), []).unavailable!, /its domain "pair" is not among the domains given/);
});

test('renameDomain: same wording and structure under fresh tokens that occur in none of its text', () => {
  const d = wordy(['zqid', 'B', 'C']);
  const { domain, prefix, token } = renameDomain(d, 'a prompt that says zqid1');
  assert.equal(prefix, 'zqid2');
  assert.deepEqual([...token.values()], ['zqid21_', 'zqid22_', 'zqid23_']);
  assert.deepEqual(domain.prerequisites, [['zqid21_', 'zqid22_']]);
  assert.deepEqual(domain.components.map((c) => c.description), d.components.map((c) => c.description));
  // A domain given as a basis keeps its states.
  const basis = buildDomain({ id: 'b', title: 'T', source: 's', components: [{ id: 'p', description: 'P' }, { id: 'q', description: 'Q' }], basis: [['p'], ['q']] });
  assert.deepEqual(enumerateStates(renameDomain(basis, '').domain), enumerateStates(basis).map((s) => s.map((id) => `zqid${id === 'p' ? 1 : 2}_`)));
});

test('§4.3 on the same records: no canonical ID in a prompt, and one seed per domain and order; each fails when made wrong', () => {
  const records = corpus(study);
  // equation-to-graph 7 states, graph-to-equation 9; × 4 conditions × 2 orders.
  assert.equal(records.length, 128);
  assert.deepEqual([canonicalIdsInNoPrompt(records, study).holds, presentationsReused(records).holds], [true, true], canonicalIdsInNoPrompt(records, study).detail);
  assert.equal(presentationsReused(records).detail, '2 domains, 2 orders each, one seed per order shared by all 128 records');
  // A recorded prompt that names a component by its ID is not the builder's text.
  const named = [...records];
  named[9] = withUser(records[9]!, `${records[9]!.prompt!.user}Start with EG2.\n`);
  // A recorded prompt that is not the builder's text cannot be judged by asking the builder.
  assert.match(canonicalIdsInNoPrompt(named, study).unavailable!, /^the recorded prompts are not this version's buildPrompt text \(first: final record 10 /);
  // Another seed for one record of order 1; a model that saw only order 1; two orders with one seed.
  const reseeded = records.map((r, i) => (i === 20 ? { ...r, presentation_seed: 'other' } : r));
  assert.match(presentationsReused(reseeded).detail, /^final record 21 .*another presentation seed than earlier records/);
  const m2 = [...records, { ...records[0]!, model: 'm2' }];
  assert.match(presentationsReused(m2).detail, /^m2 × P0 of "equation-to-graph" did not see every order \(1 of 1,2\)/);
  const oneSeed = records.map((r) => ({ ...r, presentation_seed: `${r.domain}-seed` }));
  assert.match(presentationsReused(oneSeed).detail, /two orders share one presentation seed/);
  assert.match(presentationsReused([]).unavailable!, /^no final records/);
  assert.match(presentationsReused(records.map(({ presentation_seed: _s, ...r }) => r)).unavailable!, /^none of the 128 final records carries a presentation seed/);
});
