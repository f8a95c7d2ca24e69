/**
 * Caps of the counts that size a collection's design and dispatcher (each sizes an allocation or a
 * loop): the bounds of `kstbench collect`'s flags and of a study manifest's `design` alike, so a value
 * the CLI refuses is refused in study.json too (docs/bounds.md).
 */
export const MAX_ORDERS = 1000;
export const MAX_CONCURRENCY = 1024;
export const MAX_OUTPUT_TOKENS = 10_000_000;
export const MAX_RETRIES = 100;
export const MAX_TPM = 1_000_000_000_000;
