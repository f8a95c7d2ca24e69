import type { PsiTaxonomy } from './schema';

/** A taxonomy concept detected in a response. */
export interface ConceptMention {
  id: string;
  /** Character offset of the first accepted keyword match. */
  first: number;
  /** Number of accepted keyword matches. */
  count: number;
  /** The keyword of the first match, as written in the taxonomy. */
  keyword: string;
}

const WORD_CHAR = /[A-Za-z0-9_]/;

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Builds the regular expression of one keyword. Matching is case-insensitive; runs of white space in
 * the keyword match any run of white space; a word-boundary guard is added on each side whose keyword
 * character is a word character (so `list` does not match inside `enlist` or `listen`, while `print(`
 * matches in `print("hi")`). With `plurals`, a keyword ending in a letter may be followed by `s` or
 * `es` (`loop` also matches `loops`).
 */
export function keywordPattern(keyword: string, plurals: boolean): RegExp {
  const trimmedEnd = keyword.replace(/\s+$/, '');
  const trailingSpace = trimmedEnd.length < keyword.length;
  const body = trimmedEnd
    .trim()
    .split(/\s+/)
    .map(escapeRegExp)
    .join('\\s+');
  const first = keyword.trim()[0] ?? '';
  const last = trimmedEnd[trimmedEnd.length - 1] ?? '';
  const lead = WORD_CHAR.test(first) ? '(?<![A-Za-z0-9_])' : '';
  const plural = plurals && /[A-Za-z]/.test(last) && !trailingSpace ? '(?:e?s)?' : '';
  const tail = trailingSpace ? '\\s+' : WORD_CHAR.test(last) ? '(?![A-Za-z0-9_])' : '';
  return new RegExp(`${lead}${body}${plural}${tail}`, 'gi');
}

type Matcher = ReadonlyArray<{ id: string; keyword: string; re: RegExp }>;
const cache = new WeakMap<PsiTaxonomy, Map<boolean, Matcher>>();

function matcherFor(taxonomy: PsiTaxonomy, plurals: boolean): Matcher {
  let byMode = cache.get(taxonomy);
  if (!byMode) cache.set(taxonomy, (byMode = new Map()));
  let m = byMode.get(plurals);
  if (!m) {
    m = taxonomy.ids.flatMap((id) =>
      (taxonomy.keywords.get(id) ?? []).map((keyword) => ({ id, keyword, re: keywordPattern(keyword, plurals) })),
    );
    byMode.set(plurals, m);
  }
  return m;
}

/**
 * Finds the taxonomy concepts a response mentions, by keyword matching over the whole text (prose and
 * code). All keyword matches are collected and resolved leftmost-longest: matches are taken in order
 * of start offset (longer first at equal starts) and a match overlapping an already accepted one is
 * dropped, so "list comprehension" counts for `list_comprehension` only, not also for `lists`.
 * Returns concepts in order of first mention (ties: canonical taxonomy order).
 *
 * With the shipped taxonomy (variables: "variable", for_loop: "for loop"), "A for loop updates a
 * variable" mentions for_loop at 2 and variables at 21.
 * @example
 * const { loadPsiTaxonomy } = require('./schema');
 * const taxonomy = loadPsiTaxonomy(require.resolve('../../../data/raw/psi/taxonomy.json'));
 * findConcepts('A for loop updates a variable', taxonomy).map((m) => [m.id, m.first]); // => [['for_loop', 2], ['variables', 21]]
 */
export function findConcepts(text: string, taxonomy: PsiTaxonomy, plurals = true): ConceptMention[] {
  const hits: Array<{ id: string; keyword: string; start: number; end: number }> = [];
  for (const { id, keyword, re } of matcherFor(taxonomy, plurals)) {
    re.lastIndex = 0;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      if (m[0].length === 0) {
        re.lastIndex++;
        continue;
      }
      hits.push({ id, keyword, start: m.index, end: m.index + m[0].length });
    }
  }
  hits.sort((a, b) => a.start - b.start || b.end - a.end);
  const byId = new Map<string, ConceptMention>();
  let coveredTo = 0;
  for (const h of hits) {
    if (h.start < coveredTo) continue;
    coveredTo = h.end;
    const seen = byId.get(h.id);
    if (seen) seen.count++;
    else byId.set(h.id, { id: h.id, first: h.start, count: 1, keyword: h.keyword });
  }
  return [...byId.values()].sort(
    (a, b) => a.first - b.first || taxonomy.index.get(a.id)! - taxonomy.index.get(b.id)!,
  );
}
