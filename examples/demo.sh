#!/usr/bin/env bash
# make demo: start a local cloud in a temporary data dir on a free port, run the
# walkthrough against it, and stop the cloud whatever happens.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
data_dir="$(mktemp -d "${TMPDIR:-/tmp}/occli-demo.XXXXXX")"

cleanup() {
    occli-localcloud stop --data-dir "$data_dir" >/dev/null 2>&1 || true
    rm -rf "$data_dir"
}
trap cleanup EXIT

# the demo sets the environment itself and deletes the folder at the end:
# no "export …" hint for the user to copy
occli-localcloud start --port 0 --build-time 2 --data-dir "$data_dir" | sed '/^To use it:$/d; /^ *export /d'
export OS_CLIENT_CONFIG_FILE="$data_dir/clouds.yaml"
export OCCLI_CACHE_DIR="$data_dir/cache"
bash "$here/walkthrough.sh"
