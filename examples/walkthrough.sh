#!/usr/bin/env bash
# A walkthrough of occli against a cloud named "local" (a member) and
# "local-admin" (an admin), as the local cloud's clouds.yaml defines them.
# Run it through `make demo`, or start a local cloud yourself and export
# OS_CLIENT_CONFIG_FILE (occli-localcloud start prints how).
set -euo pipefail

step() { printf '\n\033[1m$ %s\033[0m\n' "$*"; "$@"; }
user=(occli --os-cloud local)
admin=(occli --os-cloud local-admin)

echo "== Servers =="
step "${user[@]}" flavor list
step "${user[@]}" image list
step "${user[@]}" server create demo-vm --image cirros-0.6.2-x86_64-disk \
    --flavor m1.tiny --nic auto --property role=demo --wait
step "${user[@]}" server list
step "${user[@]}" server list -f json
step "${user[@]}" server stop demo-vm --wait
step "${user[@]}" server start demo-vm --wait
step "${user[@]}" server show demo-vm -c name -c status -c addresses -c properties
