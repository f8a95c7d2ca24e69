/**
 * Fixed-size bitsets over component indices, stored as Uint32Array words (bit i lives in word i >>> 5,
 * position i & 31). The knowledge-space code keeps every set of components in this form so that
 * prerequisite checks are word-wide ANDs instead of string-set look-ups.
 *
 * @example
 * wordsFor(40); // => 2
 * const bits = emptyBits(40);
 * setBit(bits, 0);
 * setBit(bits, 33);
 * [...bits]; // => [0b1, 0b10]
 * bitIndices(bits); // => [0, 33]
 */

/** Number of 32-bit words needed for `n` bits. */
export function wordsFor(n: number): number {
  return (n + 31) >>> 5;
}

/** A new all-zero bitset able to hold `n` bits. */
export function emptyBits(n: number): Uint32Array {
  return new Uint32Array(wordsFor(n));
}

export function setBit(bits: Uint32Array, i: number): void {
  bits[i >>> 5]! |= 1 << (i & 31);
}

export function clearBit(bits: Uint32Array, i: number): void {
  bits[i >>> 5]! &= ~(1 << (i & 31));
}

export function hasBit(bits: Uint32Array, i: number): boolean {
  return (bits[i >>> 5]! & (1 << (i & 31))) !== 0;
}

/** Population count of one 32-bit word (SWAR bit counting). */
export function popcount32(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/** Number of set bits. */
export function countBits(bits: Uint32Array): number {
  let total = 0;
  for (let w = 0; w < bits.length; w++) total += popcount32(bits[w]!);
  return total;
}

/** Sort key of an item bitset: by size, then lexicographically by item indices (∅ first, Q last). */
export function compareItemSets(a: Uint32Array, b: Uint32Array): number {
  const sa = countBits(a);
  const sb = countBits(b);
  if (sa !== sb) return sa - sb;
  for (let w = 0; w < a.length; w++) {
    const d = a[w]! ^ b[w]!;
    if (d !== 0) return (a[w]! & d & -d) !== 0 ? -1 : 1;
  }
  return 0;
}

/** Index of the lowest set bit of a non-zero 32-bit word. */
export function lowestBit32(x: number): number {
  return 31 - Math.clz32(x & -x);
}

/** Indices of the set bits in increasing order. */
export function bitIndices(bits: Uint32Array): number[] {
  const out: number[] = [];
  for (let w = 0; w < bits.length; w++) {
    let word = bits[w]!;
    while (word !== 0) {
      const low = word & -word;
      out.push((w << 5) + 31 - Math.clz32(low));
      word ^= low;
    }
  }
  return out;
}

/** `a ⊆ b`, i.e. every bit of `a` is also set in `b`. */
export function isSubset(a: Uint32Array, b: Uint32Array): boolean {
  for (let w = 0; w < a.length; w++) if ((a[w]! & ~b[w]!) !== 0) return false;
  return true;
}

/** `a ∩ b ≠ ∅`. */
export function intersects(a: Uint32Array, b: Uint32Array): boolean {
  for (let w = 0; w < a.length; w++) if ((a[w]! & b[w]!) !== 0) return true;
  return false;
}

/** In place: `target ← target ∪ source`. */
export function orInto(target: Uint32Array, source: Uint32Array): void {
  for (let w = 0; w < target.length; w++) target[w]! |= source[w]!;
}

export function equalBits(a: Uint32Array, b: Uint32Array): boolean {
  if (a.length !== b.length) return false;
  for (let w = 0; w < a.length; w++) if (a[w] !== b[w]) return false;
  return true;
}

/** A compact string key for use in Map/Set (one base-36 chunk per word). */
export function bitsKey(bits: Uint32Array): string {
  let key = '';
  for (let w = 0; w < bits.length; w++) key += (w === 0 ? '' : '.') + bits[w]!.toString(36);
  return key;
}
