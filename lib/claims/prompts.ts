/**
 * [KST-2026] §4.2 says the true outer fringe was never part of a prompt. The claim is checked on the
 * prompts a corpus actually sent (the `prompt` of every final record in responses.jsonl), in two ways:
 *
 * 1. **The builder made them.** Each recorded prompt is rebuilt with lib/prompting's `buildPrompt` for
 *    its own cell (domain, state, condition, presentation order, the order's seed checked against the
 *    record's) and must be the same text. buildPrompt takes no fringe as input.
 * 2. **Nothing but the mastered set varies with the state.** Within one (domain, condition, order),
 *    every prompt must be the same text once its single "already mastered" line is taken out, and that
 *    line must name exactly the state's positions. Such a group holds states with different outer
 *    fringes (checked: at least two), so a text shared by all of them cannot state any one state's
 *    fringe: the fringe is left to be worked out from the mastered set and, in P2/P3, the structure the
 *    condition supplies. This check does not rely on the builder, so it also judges prompts another
 *    tool wrote (`compareWithBuilder: false`).
 *
 * A record without a prompt (an import records none) makes the claim not shown, never assumed.
 *
 * Two §4.3 design statements are checked on the same records: no prompt names a component by its
 * canonical ID (`canonicalIdsInNoPrompt`), and each domain's presentation orders are fixed
 * permutations reused across states, conditions and models (`presentationsReused`).
 */
import { InputError } from '../errors';
import { outerFringe, presentationOrders, type Domain, type Presentation } from '../kst';
import { buildPrompt, idsToPositions } from '../prompting';
import type { Condition } from '../conditions';

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

export interface FringeInNoPromptResult {
  /** True when every record carries a prompt and both checks hold for all of them. */
  holds: boolean;
  /** Records whose prompt was checked. */
  prompts: number;
  /** (domain, condition, order) groups compared. */
  groups: number;
  /** What was shown, or the first problem (naming the record by line and run id). */
  detail: string;
}

/** The line of the shared core that carries the state (lib/prompting/prompt.ts, masteredBlock). */
export const MASTERED_LINE_PREFIX = 'Components the learner has already mastered:';

interface Group {
  rest: string;
  first: string;
  fringes: Set<string>;
}

const fail = (prompts: number, groups: number, detail: string): FringeInNoPromptResult => ({ holds: false, prompts, groups, detail });

/** Checks that no recorded prompt contained its state's outer fringe (see the module comment). */
export function fringeInNoPrompt(records: readonly PromptRecordLike[], domains: readonly Domain[], options: { compareWithBuilder?: boolean } = {}): FringeInNoPromptResult {
  if (records.length === 0) return fail(0, 0, 'no final records, so no prompt to check');
  const withoutPrompt = records.filter((r) => typeof r.prompt?.user !== 'string' || typeof r.prompt.system !== 'string').length;
  if (withoutPrompt > 0) return fail(0, 0, `${withoutPrompt} of ${records.length} final records carry no prompt, so what was sent cannot be checked`);
  const byId = new Map(domains.map((d) => [d.id, d]));
  const presentations = new Map<string, Presentation[]>();
  const groups = new Map<string, Group>();
  const systems = new Set<string>();
  const builtByCell = new Map<string, { system: string; user: string }>();
  for (const [i, r] of records.entries()) {
    const where = `final record ${i + 1}${r.run_id ? ` (${r.run_id})` : ''}`;
    const domain = byId.get(r.domain ?? '');
    if (!domain || !Array.isArray(r.state) || typeof r.condition !== 'string' || !Number.isSafeInteger(r.order) || r.order! < 1) {
      return fail(i, groups.size, `${where}: no known domain, state, condition and order to rebuild its prompt from`);
    }
    const presentation = presentationOf(domain, r.order!, presentations);
    if (r.presentation_seed !== undefined && r.presentation_seed !== presentation.seed) return fail(i, groups.size, `${where}: its presentation seed is not order ${r.order}'s of domain "${domain.id}"`);
    const user = r.prompt!.user!;
    systems.add(r.prompt!.system!);
    if (options.compareWithBuilder !== false) {
      // Every model of a cell was sent the same prompt: build it once per cell (building is pure).
      const cell = `${domain.id}|${r.condition}|${r.order}|${r.state.join(',')}`;
      let built = builtByCell.get(cell);
      if (built === undefined) {
        try {
          built = buildPrompt(domain, r.state, r.condition as Condition, presentation);
        } catch (e) {
          if (e instanceof InputError) return fail(i, groups.size, `${where}: ${e.message}`);
          throw e;
        }
        builtByCell.set(cell, built);
      }
      if (built.system !== r.prompt!.system || built.user !== user) return fail(i, groups.size, `${where}: the prompt is not the text buildPrompt makes for its cell`);
    }
    const lines = user.split('\n');
    const mastered = lines.filter((l) => l.startsWith(MASTERED_LINE_PREFIX));
    if (mastered.length !== 1) return fail(i, groups.size, `${where}: ${mastered.length} "already mastered" lines, expected one`);
    const named = (mastered[0]!.slice(MASTERED_LINE_PREFIX.length).match(/\d+/g) ?? []).map(Number);
    if (named.join(',') !== idsToPositions(presentation, r.state).join(',')) return fail(i, groups.size, `${where}: the "already mastered" line does not name exactly the state's positions`);
    const rest = lines.filter((l) => !l.startsWith(MASTERED_LINE_PREFIX)).join('\n');
    const key = `${domain.id}|${r.condition}|${r.order}`;
    const group = groups.get(key) ?? { rest, first: where, fringes: new Set<string>() };
    groups.set(key, group);
    if (group.rest !== rest) return fail(i, groups.size, `${where}: besides the mastered line its text differs from ${group.first}'s (same domain, condition and order), so the prompt says more about its state than the mastered set`);
    group.fringes.add(outerFringe(domain, r.state).join(','));
  }
  if (systems.size !== 1) return fail(records.length, groups.size, `${systems.size} different system messages, expected one shared by every cell`);
  const flat = [...groups].find(([, g]) => g.fringes.size < 2);
  if (flat) return fail(records.length, groups.size, `group ${flat[0]}: its states share one outer fringe, so the comparison cannot tell a fringe from the shared text`);
  return {
    holds: true,
    prompts: records.length,
    groups: groups.size,
    detail: `${records.length} prompts ${options.compareWithBuilder === false ? '' : 'rebuilt by buildPrompt; '}in ${groups.size} (domain, condition, order) groups only the mastered line varies`,
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
 * Checked on the recorded prompts: no system or user text contains a component ID of its domain as a
 * word (an ID such as `LM3`; "LM35" or "xLM3" do not count). Records without a prompt: not shown.
 */
export function canonicalIdsInNoPrompt(records: readonly PromptRecordLike[], domains: readonly Domain[]): FringeInNoPromptResult {
  if (records.length === 0) return fail(0, 0, 'no final records, so no prompt to check');
  const ids = new Map(domains.map((d) => [d.id, new Set(d.ids)]));
  for (const [i, r] of records.entries()) {
    const where = `final record ${i + 1}${r.run_id ? ` (${r.run_id})` : ''}`;
    if (typeof r.prompt?.user !== 'string' || typeof r.prompt.system !== 'string') return fail(i, 0, `${where}: carries no prompt, so what was sent cannot be checked`);
    const known = ids.get(r.domain ?? '');
    if (!known) return fail(i, 0, `${where}: no known domain`);
    const numeric = [...known].find((id) => /^\d+$/.test(id));
    if (numeric !== undefined) return fail(i, 0, `${where}: domain "${r.domain}" has the ID ${numeric}, which cannot be told from a position`);
    // Words as the domain file allows IDs (letters, digits, "_", ".", "-"), also without a sentence's closing dots.
    const hit = (`${r.prompt.system}\n${r.prompt.user}`.match(/[A-Za-z0-9][A-Za-z0-9_.-]*/g) ?? []).find((w) => known.has(w) || known.has(w.replace(/\.+$/, '')));
    if (hit !== undefined) return fail(i, 0, `${where}: the prompt names component ${hit.replace(/\.+$/, '')} by its canonical ID`);
  }
  return { holds: true, prompts: records.length, groups: 0, detail: `no canonical component ID in any of ${records.length} prompts` };
}

/**
 * [KST-2026] §4.3: each domain has two fixed presentation orders (permutations from seeds), reused
 * across states, conditions and models. Checked on the records: per domain, every order number has one
 * presentation seed shared by all its records, the orders' seeds differ, and every (model, condition)
 * of the domain saw the same orders.
 */
export function presentationsReused(records: readonly PromptRecordLike[]): FringeInNoPromptResult {
  if (records.length === 0) return fail(0, 0, 'no final records');
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

