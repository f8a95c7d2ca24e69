import { InputError } from '../errors';
import type { Domain, Presentation } from '../kst';

/**
 * Translation between canonical component IDs and the temporary 1-based positions a prompt shows.
 *
 * A `Presentation` is one deterministic permutation of a domain's components: `positions[i]` is the
 * canonical ID displayed as number `i + 1`. Everything a model sees (component list, mastered set, P2
 * relations, P3 states) and everything it answers (recommended positions, P1 pairs) goes through it,
 * so canonical IDs and the canonical order never reach the model.
 *
 * With `positions = ['c', 'a', 'b']`, id `a` is shown as 2, and the answer `[3, 1]` means `['b', 'c']`
 * (`positionsToIds` returns IDs in canonical order `a, b, c`).
 * @example
 * const shown = { domain: 'd', positions: ['c', 'a', 'b'] } as any;
 * const canonical = { index: new Map([['a', 0], ['b', 1], ['c', 2]]) };
 * idsToPositions(shown, ['a']); // => [2]
 * positionsToIds(shown, [3, 1], canonical); // => ['b', 'c']
 * positionsToIds(shown, [4], canonical); // throws /position 4 is outside 1\.\.3 for domain "d"/
 * positionsToIds(shown, [1, 1], canonical); // throws /position 1 is listed twice/
 */

/** Positions (ascending) of the given canonical IDs; InputError names an ID the presentation lacks or a repeat. */
export function idsToPositions(presentation: Presentation, ids: readonly string[]): number[] {
  const byId = positionIndex(presentation);
  const seen = new Set<string>();
  const positions = ids.map((id) => {
    const position = byId.get(id);
    if (position === undefined) {
      throw new InputError(`component "${id}" is not part of the presentation of domain "${presentation.domain}"`, {
        item: id,
      });
    }
    if (seen.has(id)) throw new InputError(`component "${id}" is listed twice`, { item: id });
    seen.add(id);
    return position;
  });
  return positions.sort((a, b) => a - b);
}

/**
 * Canonical IDs for the given 1-based positions, sorted in the domain's canonical order (so two answers
 * naming the same set map to the same array). InputError names a position outside 1..n, a non-integer
 * or a repeated position; `validateResponse` rejects such answers earlier with a reason code.
 */
export function positionsToIds(
  presentation: Presentation,
  positions: readonly number[],
  domain: Pick<Domain, 'index'>,
): string[] {
  const n = presentation.positions.length;
  const seen = new Set<number>();
  const ids = positions.map((position) => {
    if (!Number.isInteger(position) || position < 1 || position > n) {
      throw new InputError(`position ${position} is outside 1..${n} for domain "${presentation.domain}"`, {
        item: String(position),
      });
    }
    if (seen.has(position)) throw new InputError(`position ${position} is listed twice`, { item: String(position) });
    seen.add(position);
    return presentation.positions[position - 1]!;
  });
  return ids.sort((a, b) => canonicalIndex(domain, a) - canonicalIndex(domain, b));
}

/** Maps canonical ID -> 1-based position for one presentation. */
export function positionIndex(presentation: Presentation): Map<string, number> {
  return new Map(presentation.positions.map((id, i) => [id, i + 1]));
}

function canonicalIndex(domain: Pick<Domain, 'index'>, id: string): number {
  const index = domain.index.get(id);
  if (index === undefined) throw new InputError(`component "${id}" is not part of the domain`, { item: id });
  return index;
}
