/**
 * [KST-2026] §4.2 says the true outer fringe was never part of a prompt. The claim is checked on the
 * prompts a corpus actually sent (the `prompt` of every final record in responses.jsonl), in two ways:
 *
 * 1. **The builder made them.** Each recorded prompt is rebuilt with lib/prompting's `buildPrompt` for
 *    its own cell (domain, state, condition, presentation order, the order's seed checked against the
 *    record's). buildPrompt takes no fringe as input. A prompt that is not its text (an older
 *    kstbench's wording, an edited description) is no leak by itself: the check then rests on 2 alone,
 *    and its detail says so.
 * 2. **Nothing but the mastered set varies with the state.** Within one (domain, condition, order),
 *    every prompt (system message included) must be the same text once its single "already mastered"
 *    line is taken out, and that line must name exactly the state's positions. A group whose states
 *    have different outer fringes decides: a text shared by all of them cannot state any one state's
 *    fringe, which is left to be worked out from the mastered set and, in P2/P3, the structure the
 *    condition supplies. Groups whose states share one fringe cannot decide; they are counted in the
 *    detail and the others decide. This check does not rely on the builder, so it also judges prompts
 *    another tool wrote (`compareWithBuilder: false`).
 *
 * What an input cannot show is said, not failed: no final records, records without a prompt (an import
 * records none; when only some lack one, the others are still checked and a leak among them fails),
 * a record of a domain not given, system messages that differ across groups, another builder's prompts
 * without the mastered line, or no group that can decide give `unavailable` (the ledger shows the claim
 * as not rebuildable on this input, with the reason), never a false `differs`.
 *
 * Two §4.3 design statements are checked on the same records: no prompt names a component by its
 * canonical ID (`canonicalIdsInNoPrompt`), and each domain's presentation orders are fixed
 * permutations reused across states, conditions and models (`presentationsReused`).
 */
import { InputError } from '../errors';
import { buildDomain, outerFringe, presentationOrders, type Domain, type DomainFile, type Presentation } from '../kst';
import { buildPrompt, idsToPositions } from '../prompting';
import type { Condition } from '../conditions';
import type { ClaimCheck } from './ledger';

/** The fields of a final record (responses.jsonl) the check reads; everything else is ignored. */
export interface PromptRecordLike {
  run_id?: string;
  model?: string;
  domain?: string;
  state?: readonly string[];
  condition?: string;
  order?: number;
  /** A string as the collector writes it; `unknown` because the final-record schema leaves it open. */
  presentation_seed?: unknown;
  prompt?: { system?: string; user?: string };
}

/** What made the prompts: lib/prompting's buildPrompt unless another builder is named (a test's, a user's own). */
export type PromptBuilder = (domain: Domain, state: readonly string[], condition: Condition, presentation: Presentation) => { system: string; user: string };

/** The line of the shared core that carries the state (lib/prompting/prompt.ts, masteredBlock). */
export const MASTERED_LINE_PREFIX = 'Components the learner has already mastered:';

interface Group {
  rest: string;
  first: string;
  fringes: Set<string>;
}

const fail = (prompts: number, groups: number, detail: string): ClaimCheck => ({ holds: false, prompts, groups, detail });
const unavailable = (prompts: number, groups: number, reason: string): ClaimCheck => ({ holds: false, unavailable: reason, prompts, groups, detail: reason });

const hasPrompt = (r: PromptRecordLike) => typeof r.prompt?.user === 'string' && typeof r.prompt.system === 'string';
const recordName = (r: PromptRecordLike, i: number) => `final record ${i + 1}${r.run_id ? ` (${r.run_id})` : ''}`;

/**
 * Runs `check` on the records that carry a prompt. With none, or with some missing, the claim cannot be
 * shown on this input (unavailable), unless the records that do carry one already fail: a leak found
 * is a leak whatever the other records hold. Record numbers in the details stay the input's own.
 */
function onRecordedPrompts(records: readonly PromptRecordLike[], check: (withPrompt: ReadonlyArray<readonly [PromptRecordLike, number]>) => ClaimCheck): ClaimCheck {
  if (records.length === 0) return unavailable(0, 0, 'no final records (responses.jsonl), so no prompt to check');
  const withPrompt = [...records.entries()].filter(([, r]) => hasPrompt(r)).map(([i, r]) => [r, i] as const);
  const missing = records.length - withPrompt.length;
  const why = `${missing} of ${records.length} final records carry no prompt (an import records none), so what was sent cannot be checked`;
  if (withPrompt.length === 0) return unavailable(0, 0, why);
  const result = check(withPrompt);
  if (missing === 0 || (!result.holds && result.unavailable === undefined)) return result;
  return unavailable(result.prompts, result.groups ?? 0, `${why}; the ${withPrompt.length} that do ${result.holds ? 'pass' : 'cannot show it either'}: ${result.detail}`);
}

/** Checks that no recorded prompt contained its state's outer fringe (see the module comment). */
export function fringeInNoPrompt(records: readonly PromptRecordLike[], domains: readonly Domain[], options: { compareWithBuilder?: boolean } = {}): ClaimCheck {
  return onRecordedPrompts(records, (withPrompt) => fringeCheck(withPrompt, domains, options.compareWithBuilder !== false));
}

function fringeCheck(records: ReadonlyArray<readonly [PromptRecordLike, number]>, domains: readonly Domain[], compareWithBuilder: boolean): ClaimCheck {
  const byId = new Map(domains.map((d) => [d.id, d]));
  const presentations = new Map<string, Presentation[]>();
  const groups = new Map<string, Group>();
  const systems = new Set<string>();
  const builder = cellBuilder();
  // A prompt that is not this version's buildPrompt text (an older kstbench's wording, an edited
  // description) is no leak by itself: the comparison across states still judges it.
  let notBuilders: string | undefined;
  for (const [k, [r, i]] of records.entries()) {
    const where = recordName(r, i);
    const domain = byId.get(r.domain ?? '');
    if (!domain) return unavailable(k, groups.size, `${where}: its domain "${r.domain ?? ''}" is not among the domains given, so its prompt cannot be rebuilt`);
    if (!Array.isArray(r.state) || typeof r.condition !== 'string' || !Number.isSafeInteger(r.order) || r.order! < 1) {
      return fail(k, groups.size, `${where}: no state, condition and order to rebuild its prompt from`);
    }
    const presentation = presentationOf(domain, r.order!, presentations);
    if (r.presentation_seed !== undefined && r.presentation_seed !== presentation.seed) return fail(k, groups.size, `${where}: its presentation seed is not order ${r.order}'s of domain "${domain.id}"`);
    const user = r.prompt!.user!;
    systems.add(r.prompt!.system!);
    if (compareWithBuilder && notBuilders === undefined) {
      const built = builder(domain, r.state, r.condition, presentation);
      if (typeof built === 'string') return fail(k, groups.size, `${where}: ${built}`);
      if (built.system !== r.prompt!.system || built.user !== user) notBuilders = where;
    }
    const lines = user.split('\n');
    const mastered = lines.filter((l) => l.startsWith(MASTERED_LINE_PREFIX));
    if (mastered.length !== 1) {
      const why = `${where}: ${mastered.length} "already mastered" lines, expected one`;
      // Another builder's wording may name the mastered set otherwise: then the line cannot be taken out, which shows nothing.
      if (notBuilders !== undefined) return unavailable(k, groups.size, `${why}; the prompts are not this version's buildPrompt text (first: ${notBuilders}), so the state's line cannot be found`);
      return fail(k, groups.size, why);
    }
    const named = (mastered[0]!.slice(MASTERED_LINE_PREFIX.length).match(/\d+/g) ?? []).map(Number);
    if (named.join(',') !== idsToPositions(presentation, r.state).join(',')) return fail(k, groups.size, `${where}: the "already mastered" line does not name exactly the state's positions`);
    // The system message is part of what must not vary with the state.
    const rest = [r.prompt!.system!, ...lines.filter((l) => !l.startsWith(MASTERED_LINE_PREFIX))].join('\n');
    const key = `${domain.id}|${r.condition}|${r.order}`;
    const group = groups.get(key) ?? { rest, first: where, fringes: new Set<string>() };
    groups.set(key, group);
    if (group.rest !== rest) return fail(k, groups.size, `${where}: besides the mastered line its text differs from ${group.first}'s (same domain, condition and order), so the prompt says more about its state than the mastered set`);
    group.fringes.add(outerFringe(domain, r.state).join(','));
  }
  if (systems.size !== 1) return unavailable(records.length, groups.size, `${systems.size} different system messages across the (domain, condition, order) groups, not the one a single builder writes, so the records cannot be read as one tool's prompts`);
  const flat = [...groups.values()].filter((g) => g.fringes.size < 2).length;
  if (flat === groups.size) return unavailable(records.length, groups.size, `in each of the ${groups.size} (domain, condition, order) groups the states share one outer fringe, so the comparison cannot tell a fringe from the shared text`);
  const builderWord = !compareWithBuilder ? '' : notBuilders === undefined ? 'rebuilt by buildPrompt; ' : `not this version's buildPrompt text (first: ${notBuilders}), so compared across states only; `;
  const flatWord = flat > 0 ? ` (${flat} groups whose states share one outer fringe cannot decide and are not counted)` : '';
  return {
    holds: true,
    prompts: records.length,
    groups: groups.size - flat,
    detail: `${records.length} prompts ${builderWord}in ${groups.size - flat} (domain, condition, order) groups only the mastered line varies${flatWord}`,
  };
}

/**
 * buildPrompt once per cell (every model of a cell was sent the same text; building is pure), keyed by
 * the domain object, so a renamed copy of a domain has cells of its own. A cell that cannot be built
 * (a state that is not one, an unknown condition) gives InputError's message.
 */
function cellBuilder(build: PromptBuilder = buildPrompt): (domain: Domain, state: readonly string[], condition: string, presentation: Presentation) => { system: string; user: string } | string {
  const cache = new WeakMap<Domain, Map<string, { system: string; user: string } | string>>();
  return (domain, state, condition, presentation) => {
    let cells = cache.get(domain);
    if (!cells) cache.set(domain, (cells = new Map()));
    const cell = `${condition}|${presentation.order}|${state.join(',')}`;
    let built = cells.get(cell);
    if (built === undefined) {
      try {
        const p = build(domain, state, condition as Condition, presentation);
        built = { system: p.system, user: p.user };
      } catch (e) {
        if (!(e instanceof InputError)) throw e;
        built = e.message;
      }
      cells.set(cell, built);
    }
    return built;
  };
}

function presentationOf(domain: Domain, order: number, cache: Map<string, Presentation[]>): Presentation {
  let orders = cache.get(domain.id);
  // Orders 1..k are the same whatever the count drawn (lib/kst/presentation.ts draws them in turn).
  if (!orders || orders.length < order) cache.set(domain.id, (orders = presentationOrders(domain, Math.max(order, 2))));
  return orders[order - 1]!;
}

/**
 * [KST-2026] §4.3: temporary 1-based positions replaced the canonical component IDs in every prompt.
 * Searching the text for the IDs cannot tell an ID such as `A` from the article "A", nor `1` from a
 * position, so the check asks the builder instead, on every recorded prompt:
 *
 * 1. the recorded prompt is the text `buildPrompt` makes for its cell (so the builder wrote it), and
 * 2. the same cell built from a copy of the domain whose IDs are renamed to fresh tokens (a prefix that
 *    occurs in neither the cell's text nor the domain's wording, plus a number and a closing `_`)
 *    contains no token: whatever the builder writes, it writes no ID.
 *
 * `build` names the builder when the prompts were made by another one (default buildPrompt). Prompts
 * that are not the builder's text cannot be judged this way: unavailable, unless the builder writes an
 * ID on another record (a leak found is a leak).
 *
 * The descriptions are the domain author's words and go in as they are; an ID they mention is theirs.
 */
export function canonicalIdsInNoPrompt(records: readonly PromptRecordLike[], domains: readonly Domain[], options: { build?: PromptBuilder } = {}): ClaimCheck {
  return onRecordedPrompts(records, (withPrompt) => positionsOnlyCheck(withPrompt, domains, cellBuilder(options.build)));
}

function positionsOnlyCheck(records: ReadonlyArray<readonly [PromptRecordLike, number]>, domains: readonly Domain[], builder: ReturnType<typeof cellBuilder>): ClaimCheck {
  const byId = new Map(domains.map((d) => [d.id, d]));
  const presentations = new Map<string, Presentation[]>();
  const renamed = new Map<string, RenamedDomain>();
  let notBuilders: string | undefined;
  for (const [k, [r, i]] of records.entries()) {
    const where = recordName(r, i);
    const domain = byId.get(r.domain ?? '');
    if (!domain) return unavailable(k, 0, `${where}: its domain "${r.domain ?? ''}" is not among the domains given, so its prompt cannot be rebuilt`);
    if (!Array.isArray(r.state) || typeof r.condition !== 'string' || !Number.isSafeInteger(r.order) || r.order! < 1) return fail(k, 0, `${where}: no state, condition and order to rebuild its prompt from`);
    const presentation = presentationOf(domain, r.order!, presentations);
    const built = builder(domain, r.state, r.condition, presentation);
    if (typeof built === 'string') return fail(k, 0, `${where}: ${built}`);
    // Another builder's text says nothing of what this builder writes: not shown, but a leak of this builder on other records still fails.
    if (built.system !== r.prompt!.system || built.user !== r.prompt!.user) {
      notBuilders ??= where;
      continue;
    }
    // A prefix is chosen against the texts seen so far; a later cell whose own text holds it gets a new one.
    const original = `${built.system}\n${built.user}`;
    const known = renamed.get(domain.id);
    const copy = known && !original.includes(known.prefix) ? known : renameDomain(domain, known ? `${known.prefix}\n${original}` : original);
    renamed.set(domain.id, copy);
    const rebuilt = builder(copy.domain, r.state.map((id) => copy.token.get(id)!), r.condition, renamePresentation(presentation, copy.token));
    if (typeof rebuilt === 'string') throw new Error(`domain "${domain.id}" with renamed IDs: ${rebuilt}`);
    const text = `${rebuilt.system}\n${rebuilt.user}`;
    if (text.includes(copy.prefix)) {
      const leaked = [...copy.token].find(([, t]) => text.includes(t));
      return fail(k, 0, `${where}: the builder writes component ${leaked ? leaked[0] : '?'} of "${domain.id}" by its canonical ID (built again with the IDs renamed, the prompt shows ${leaked ? leaked[1] : 'a renamed ID'})`);
    }
  }
  if (notBuilders !== undefined) return unavailable(records.length, 0, `the recorded prompts are not this version's buildPrompt text (first: ${notBuilders}), so whether their builder wrote an ID cannot be asked of it`);
  return { holds: true, prompts: records.length, groups: 0, detail: `${records.length} prompts are buildPrompt's text for their cell, and built again with every ID renamed to a fresh token none shows a token` };
}

interface RenamedDomain {
  domain: Domain;
  prefix: string;
  /** canonical ID → its token */
  token: Map<string, string>;
}

/**
 * A copy of `domain` with every ID renamed to `<prefix><index>_`: the same components, wording and
 * structure (as prerequisites, or as the basis for any other form). The prefix is the first of
 * `zqid`, `zqid1`, `zqid2`, … that occurs in neither `text` nor the domain's title and descriptions,
 * so a token in a prompt built from the copy can only have come from an ID.
 */
export function renameDomain(domain: Domain, text: string): RenamedDomain {
  const wording = [text, domain.title, ...domain.components.map((c) => c.description)].join('\n');
  let prefix = 'zqid';
  for (let n = 1; wording.includes(prefix); n++) prefix = `zqid${n}`;
  const token = new Map(domain.ids.map((id, i) => [id, `${prefix}${i + 1}_`]));
  const rn = (id: string) => token.get(id)!;
  const file: DomainFile = {
    id: domain.id,
    title: domain.title,
    source: domain.source,
    components: domain.components.map((c) => ({ ...c, id: rn(c.id) })),
    ...(domain.form === 'prerequisites' ? { prerequisites: domain.prerequisites.map(([p, q]) => [rn(p), rn(q)] as [string, string]) } : { basis: (domain.basis ?? []).map((s) => s.map(rn)) }),
  };
  return { domain: buildDomain(file), prefix, token };
}

/** The same permutation over the renamed IDs (its order and seed kept). */
function renamePresentation(p: Presentation, token: ReadonlyMap<string, string>): Presentation {
  const positions = p.positions.map((id) => token.get(id)!);
  const at = new Map(positions.map((id, i) => [id, i + 1]));
  return { domain: p.domain, order: p.order, seed: p.seed, positions, toPosition: (id) => at.get(id) ?? p.toPosition(id), toId: (position) => token.get(p.toId(position))! };
}

/**
 * [KST-2026] §4.3: each domain has two fixed presentation orders (permutations from seeds), reused
 * across states, conditions and models. Checked on the records: per domain, every order number has one
 * presentation seed shared by all its records, the orders' seeds differ, and every (model, condition)
 * of the domain saw the same orders.
 */
export function presentationsReused(records: readonly PromptRecordLike[]): ClaimCheck {
  if (records.length === 0) return unavailable(0, 0, 'no final records (responses.jsonl), so no presentation seed to check');
  if (records.every((r) => r.presentation_seed === undefined)) return unavailable(0, 0, `none of the ${records.length} final records carries a presentation seed, so the orders cannot be told apart`);
  const seeds = new Map<string, Map<number, string>>();
  const seen = new Map<string, Set<string>>();
  for (const [i, r] of records.entries()) {
    const where = `final record ${i + 1}${r.run_id ? ` (${r.run_id})` : ''}`;
    if (typeof r.presentation_seed !== 'string' || typeof r.domain !== 'string' || !Number.isSafeInteger(r.order)) return fail(i, 0, `${where}: no domain, order and presentation seed`);
    const byOrder = seeds.get(r.domain) ?? new Map<number, string>();
    seeds.set(r.domain, byOrder);
    const known = byOrder.get(r.order!);
    if (known !== undefined && known !== r.presentation_seed) return fail(i, seeds.size, `${where}: order ${r.order} of "${r.domain}" has another presentation seed than earlier records`);
    byOrder.set(r.order!, r.presentation_seed);
    const cell = `${r.domain}|${r.model ?? ''}|${r.condition ?? ''}`;
    seen.set(cell, (seen.get(cell) ?? new Set()).add(String(r.order)));
  }
  for (const [domain, byOrder] of seeds) {
    if (new Set(byOrder.values()).size !== byOrder.size) return fail(records.length, seeds.size, `domain "${domain}": two orders share one presentation seed`);
    const orders = [...byOrder.keys()].sort().join(',');
    const short = [...seen].find(([cell, o]) => cell.startsWith(`${domain}|`) && [...o].sort().join(',') !== orders);
    if (short) return fail(records.length, seeds.size, `${short[0].split('|').slice(1).join(' × ')} of "${domain}" did not see every order (${[...short[1]].sort().join(', ')} of ${orders})`);
  }
  const counts = [...new Set([...seeds.values()].map((m) => m.size))];
  return { holds: true, prompts: records.length, groups: seeds.size, detail: `${seeds.size} domains, ${counts.join('/')} orders each, one seed per order shared by all ${records.length} records` };
}

