#!/usr/bin/env bash
# Heat stacks on the local cloud: a server configured by a software
# deployment, created, updated and deleted; third-party resource types.
# `make demo` runs it after ../walkthrough.sh against a cloud started as
#
#   PYTHONPATH=examples/stacks/site occli-localcloud start \
#       --heat-simulated-agent --heat-agent-rules examples/stacks/agent-rules.yaml \
#       --heat-plugin-dir examples/stacks/plugins
#
# (the simulated agent signals the deployments as a server's
# os-collect-config would; site/ holds an installed distribution whose
# entry point adds a resource type; plugins/ a plugin directory).
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
shown() { local a out=(); for a in "$@"; do [[ $a =~ [[:space:]] ]] && a="'$a'"; out+=("$a"); done; printf '%s' "${out[*]}"; }
if [ -t 1 ]; then bold=$'\033[1m' plain=$'\033[0m'; else bold='' plain=''; fi
step() { printf '\n%s$ %s%s\n' "$bold" "$(shown "$@")" "$plain"; "$@"; }
fails() { printf '\n%s$ %s%s   # expected to fail\n' "$bold" "$(shown "$@")" "$plain"; if "$@"; then echo "unexpected success" >&2; exit 1; fi; }
user=(occli --os-cloud local)
# --wait polls the stack's events every second (heatclient's default is 5)
wait=(--wait --poll 1)

# Remove the stacks this walkthrough makes (their resources go with them),
# quietly: on entry, for what an interrupted earlier run left, and on exit.
tidy() {
    set +e
    "${user[@]}" stack delete --yes "${wait[@]}" demo-app demo-plugins >/dev/null 2>&1
    set -e
}
tidy
trap 'status=$?; trap - EXIT; [ "$status" -eq 0 ] || tidy; exit "$status"' EXIT

echo "== Stacks: a server, a software config, a deployment, a random string =="
step "${user[@]}" stack create -t "$here/app.yaml" "${wait[@]}" demo-app -c stack_name -c stack_status
step "${user[@]}" stack resource list demo-app
step "${user[@]}" stack output show demo-app --all
server=$("${user[@]}" stack resource show demo-app server -f value -c physical_resource_id)
port=$("${user[@]}" port list --server "$server" -f value -c ID)
deployment=$("${user[@]}" stack resource show demo-app deployment -f value -c physical_resource_id)
step "${user[@]}" software deployment show "$deployment" -c action -c status -c status_reason
# a new input value: Heat updates the deployment in place, the agent runs it again
step "${user[@]}" stack update --existing --parameter greeting=bonjour "${wait[@]}" demo-app \
    -c stack_status
step "${user[@]}" software deployment show "$deployment" -c action -c status -c status_reason
step "${user[@]}" stack event list demo-app --resource deployment
step "${user[@]}" stack delete --yes "${wait[@]}" demo-app
# every resource the stack made is gone from Nova, Neutron and Heat
fails "${user[@]}" server show "$server"
fails "${user[@]}" port show "$port"
fails "${user[@]}" software deployment show "$deployment"
step "${user[@]}" stack list

echo
echo "== Third-party resource types =="
# Example::Message from the plugin directory, Example::Banner from the
# entry point; plugins/broken.py failed to import (the cloud logged it)
step "${user[@]}" orchestration resource type list --filter name=Example
fails "${user[@]}" orchestration resource type show Acme::Widget
step "${user[@]}" stack create -t "$here/plugins.yaml" --parameter name=occli "${wait[@]}" \
    demo-plugins -c stack_name -c stack_status
step "${user[@]}" stack output show demo-plugins banner -f value -c output_value
step "${user[@]}" stack delete --yes "${wait[@]}" demo-plugins
echo
echo "Stacks walkthrough finished."
