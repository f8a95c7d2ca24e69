#!/usr/bin/env bash
# Executes every notebook under the real Jupyter client — `jupyter nbconvert --execute` on the tslab
# kernel — as a cross-check of the headless runner (`npm run reproduce`). Executed copies go to a
# temporary folder; the committed notebooks are not touched (the notebooks still write figures/ and
# data/processed/ as they do under reproduce). Exits non-zero on the first cell error.
#
#   scripts/nbconvert-all.sh [NOTEBOOKS_DIR] [OUTPUT_DIR]
#
# Needs Debian's jupyter-nbconvert, jupyter-client, python3-ipykernel (figures use the npm-pinned
# Chromium that npm ci installs; no browser from apt):
#   apt-get install -y jupyter-nbconvert jupyter-client python3-ipykernel
# The tslab kernel spec is installed into a private prefix inside OUTPUT_DIR (JUPYTER_PATH points
# there), pointing at this checkout's node_modules/.bin/tslab, so nothing global is changed.
# Env: NBCONVERT_TIMEOUT (seconds per cell, default 1800), CHROMIUM_PATH (a browser instead of the
#      pinned one; figure bytes may then differ), NBCONVERT_NO_BUILD=1 to skip `npm run build`.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
notebooks_dir="$(cd "${1:-$root/notebooks}" && pwd)"
out_dir="${2:-$(mktemp -d "${TMPDIR:-/tmp}/kstbench-nbconvert.XXXXXX")}"
mkdir -p "$out_dir"
out_dir="$(cd "$out_dir" && pwd)"
python=/usr/bin/python3
timeout="${NBCONVERT_TIMEOUT:-1800}"

for tool in jupyter-nbconvert "$python"; do
  command -v "$tool" >/dev/null || { echo "nbconvert-all: $tool not found (apt-get install -y jupyter-nbconvert jupyter-client python3-ipykernel)" >&2; exit 1; }
done
[ -x "$root/node_modules/.bin/tslab" ] || { echo "nbconvert-all: node_modules/.bin/tslab missing: run npm ci" >&2; exit 1; }

if [ "${NBCONVERT_NO_BUILD:-}" != 1 ]; then
  (cd "$root" && npm run --silent build)
fi

# Private kernel spec: tslab's installer with an absolute --binary, into OUTPUT_DIR/jupyter.
prefix="$out_dir/jupyter-prefix"
"$root/node_modules/.bin/tslab" install --python="$python" --binary="$root/node_modules/.bin/tslab" --prefix="$prefix" >/dev/null
export JUPYTER_PATH="$prefix/share/jupyter${JUPYTER_PATH:+:$JUPYTER_PATH}"
export JUPYTER_PLATFORM_DIRS=1
export PATH="$root/node_modules/.bin:$PATH"

shopt -s nullglob
notebooks=("$notebooks_dir"/*.ipynb)
if [ ${#notebooks[@]} -eq 0 ]; then
  echo "nbconvert-all: no notebooks in $notebooks_dir"
  exit 0
fi
status=0
for nb in "${notebooks[@]}"; do
  start=$(date +%s%N)
  # The kernel starts in the notebook's folder (Jupyter's rule), exactly like the headless runner.
  if jupyter-nbconvert --to notebook --execute \
      --ExecutePreprocessor.kernel_name=tslab \
      --ExecutePreprocessor.timeout="$timeout" \
      --output-dir "$out_dir" "$nb" >"$out_dir/$(basename "$nb").log" 2>&1; then
    ms=$(( ($(date +%s%N) - start) / 1000000 ))
    printf 'ok %s  %d.%01d s\n' "${nb#"$root"/}" $((ms / 1000)) $((ms % 1000 / 100))
  else
    echo "FAILED ${nb#"$root"/} under nbconvert (tslab kernel); log:" >&2
    tail -n 40 "$out_dir/$(basename "$nb").log" >&2
    status=1
    break
  fi
done
echo "executed notebooks in $out_dir"
exit $status
