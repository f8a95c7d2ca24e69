/**
 * What the classic Notebook 6.4 (Debian 12's `jupyter-notebook`) shows of a notebook it does not trust
 * — and a notebook from a clone is never trusted: the types of `OutputArea.safe_outputs` in
 * notebook/static/notebook/js/outputarea.js, and HTML after sanitising. Any other type of a bundle is
 * skipped for the bundle's next type, so an output with none of these shows nothing at all.
 */
export const SHOWN_UNTRUSTED: readonly string[] = ['text/plain', 'text/latex', 'image/png', 'image/jpeg', 'image/gif', 'text/html'];
