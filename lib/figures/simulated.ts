/**
 * The project's one title mark for outputs made from simulated data. `saveTable` puts it in the HTML
 * caption and `lib/report`'s figure specs in their titles; `lib/report/simulated.ts` (the notebook
 * notices) re-exports it, so notebooks and report code import it from there as before.
 */

/**
 * A table or figure title marked for simulated input; `what` names what is simulated (default "data").
 *
 * @example
 * markSimulated("Table 3", true); // => "Table 3 — SIMULATED data"
 * markSimulated("Figure 1", true, "responses"); // => "Figure 1 — SIMULATED responses"
 * markSimulated("Table 3", false); // => "Table 3"
 */
export function markSimulated(title: string, simulated: boolean, what = 'data'): string {
  return simulated ? `${title} — SIMULATED ${what}` : title;
}
