/**
 * The project's one seeded shuffle: Fisher–Yates (Durstenfeld's in-place form, Knuth TAOCP vol. 2
 * §3.4.2 algorithm P), driven by a seeded generator so a shuffle is reproducible from its recorded seed.
 * For i = n−1 down to 1 it swaps item i with item j = ⌊rng()·(i+1)⌋. Used for the presentation orders
 * (lib/kst/presentation.ts) and the collection design (lib/collect/design.ts).
 */

/**
 * Shuffles `items` in place with `rng` (uniform in [0, 1), e.g. a seedrandom generator) and returns it.
 *
 * @example
 * shuffleInPlace(['a', 'b', 'c'], () => 0); // => ['b', 'c', 'a']
 */
export function shuffleInPlace<T>(items: T[], rng: () => number): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    const tmp = items[i]!;
    items[i] = items[j]!;
    items[j] = tmp;
  }
  return items;
}
