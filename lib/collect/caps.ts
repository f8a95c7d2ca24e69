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

/**
 * Cells one collection builds in memory (states × conditions × orders × models), each with its prompt
 * job: about 700 bytes a cell (1,882,384 cells took 1.4 GB max RSS and 13 s CPU in `study check`,
 * Dec 2026), and 28 million ran out of Node's heap after 89 s. A larger design is refused before a
 * state is enumerated, with the advice to sample the states.
 */
export const MAX_DESIGN_CELLS = 2_000_000;

/**
 * States of a domain that P3 may list: its prompt lists every knowledge state, about 18 tokens each
 * (10,000 states: 180,000 tokens, over a 128k context window), so 50,000 states already make a prompt
 * of about 900,000 tokens, near the largest context window in config/models.json (1,050,000). Beyond
 * it the prompt fits no catalogued model (and 1.8 million states took 46 s and 3 GB just to build).
 */
export const MAX_P3_STATES = 50_000;
