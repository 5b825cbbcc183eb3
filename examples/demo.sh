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
# Heat's simulated in-server agent signals the stacks' software deployments;
# stacks/plugins is a plugin directory, stacks/site a distribution on the
# path whose entry point adds a resource type
PYTHONPATH="$here/stacks/site${PYTHONPATH:+:$PYTHONPATH}" occli-localcloud start \
    --port 0 --build-time 2 --data-dir "$data_dir" \
    --heat-simulated-agent --heat-agent-rules "$here/stacks/agent-rules.yaml" \
    --heat-plugin-dir "$here/stacks/plugins" | sed '/^To use it:$/d; /^ *export /d'
export OS_CLIENT_CONFIG_FILE="$data_dir/clouds.yaml"
export OCCLI_CACHE_DIR="$data_dir/cache"
bash "$here/walkthrough.sh"
echo
bash "$here/walkthrough-resources.sh"
echo
bash "$here/stacks/walkthrough.sh"
echo
echo "The local cloud's log on the broken plugin (skipped, the engine went on):"
grep -o "Failed to import plugin module .*" "$data_dir/localcloud.log"
