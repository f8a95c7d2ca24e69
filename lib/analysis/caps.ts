/**
 * Caps of the inference draws, which keep them within memory and time (the bootstrap holds one array
 * per resample): the bounds of `kstbench analyze --boot/--perm`, of a study's `analysis.resamples` and
 * `analysis.flips`, and of the notebooks' `resamples` and `flips` parameters alike, so a count the CLI
 * refuses is refused everywhere (docs/bounds.md). Its own module, without imports, so the manifest and
 * the CLI's flag table load no analysis code to know them.
 */
export const MAX_RESAMPLES = 1_000_000;
export const MAX_FLIPS = 10_000_000;
