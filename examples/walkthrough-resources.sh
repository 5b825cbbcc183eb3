#!/usr/bin/env bash
# A walkthrough of what a server touches, made, changed and deleted with
# occli as the demo user (cloud "local"): an image with its bytes, a network
# behind a router to "public", and objects with metadata. The second demo
# project (cloud "local-alt"), when clouds.yaml has it, is shared the image.
# Run it through `make demo`, or start a local cloud yourself and export
# OS_CLIENT_CONFIG_FILE (occli-localcloud start prints how).
set -euo pipefail

# the command as you would type it (arguments with spaces quoted)
shown() { local a out=(); for a in "$@"; do [[ $a =~ [[:space:]] ]] && a="'$a'"; out+=("$a"); done; printf '%s' "${out[*]}"; }
# bold commands on a terminal only, so a log or a pipe gets plain text
if [ -t 1 ]; then bold=$'\033[1m' plain=$'\033[0m'; else bold='' plain=''; fi
step() { printf '\n%s$ %s%s\n' "$bold" "$(shown "$@")" "$plain"; "$@"; }
# a step whose output goes to md5sum: step_md5 command... shows and runs  command... | md5sum
step_md5() { printf '\n%s$ %s | md5sum%s\n' "$bold" "$(shown "$@")" "$plain"; "$@" | md5sum; }
# a step that is expected to fail: show its one-line error and go on
fails() { printf '\n%s$ %s%s   # expected to fail\n' "$bold" "$(shown "$@")" "$plain"; if "$@"; then echo "unexpected success" >&2; exit 1; fi; }
user=(occli --os-cloud local)
alt=(occli --os-cloud local-alt)

# Remove what this walkthrough makes (and nothing else), quietly: on entry,
# for what an interrupted earlier run left, and on exit after a failure.
tidy() {
    local id port ip
    set +e
    "${user[@]}" server delete demo-from-image --wait >/dev/null 2>&1
    for id in $("${user[@]}" image list -f value -c ID -c Name 2>/dev/null |
        awk '$2 == "demo-upload" || $2 == "demo-upload-snap" {print $1}'); do
        "${user[@]}" image delete "$id" >/dev/null 2>&1
    done
    for port in $("${user[@]}" port list --server demo-routed -f value -c ID 2>/dev/null); do
        for ip in $("${user[@]}" floating ip list --port "$port" -f value -c ID 2>/dev/null); do
            "${user[@]}" floating ip delete "$ip" >/dev/null 2>&1
        done
    done
    "${user[@]}" server delete demo-routed --wait >/dev/null 2>&1
    "${user[@]}" router remove subnet demo-router demo-subnet >/dev/null 2>&1
    "${user[@]}" router delete demo-router >/dev/null 2>&1
    "${user[@]}" subnet delete demo-subnet >/dev/null 2>&1
    "${user[@]}" network delete demo-network >/dev/null 2>&1
    "${user[@]}" object delete demo-container notes.txt >/dev/null 2>&1
    "${user[@]}" container delete demo-container >/dev/null 2>&1
    set -e
}
tidy
# the files below are made and read in a folder of our own, removed at exit
work="$(mktemp -d "${TMPDIR:-/tmp}/occli-walkthrough.XXXXXX")"
trap 'status=$?; trap - EXIT; rm -rf "$work"; [ "$status" -eq 0 ] || tidy; exit "$status"' EXIT
cd "$work"

echo "== Images with their bytes =="
# any bytes will do: the local cloud boots whatever the image holds
head -c 262144 /dev/urandom >demo.qcow2
step md5sum demo.qcow2
step "${user[@]}" image create demo-upload --file demo.qcow2 --disk-format qcow2 \
    --container-format bare --property os_distro=cirros --tag demo \
    -c name -c status -c size -c checksum
step "${user[@]}" image show demo-upload -c name -c disk_format -c os_distro -c tags -c visibility
step "${user[@]}" server create demo-from-image --image demo-upload --flavor m1.tiny \
    --nic none --wait -c name -c status -c image
step "${user[@]}" server image create demo-from-image --name demo-upload-snap --wait -c name -c status
# image save checks the bytes against Glance's checksum as it writes them
step "${user[@]}" image save --file saved.qcow2 demo-upload
step md5sum saved.qcow2
image_id=$("${user[@]}" image show demo-upload -f value -c id)
# keystone lets demo look up no other project: local-alt's token names its own
alt_project=$("${alt[@]}" token issue -f value -c project_id 2>/dev/null || true)
if [ -n "$alt_project" ]; then
    step "${user[@]}" image add project demo-upload "$alt_project" -c member_id -c status
    # a pending member finds the image by id only; it accepts it for itself
    step "${alt[@]}" image set --accept "$image_id"
    step "${user[@]}" image member list demo-upload
    step "${alt[@]}" image show "$image_id" -c name -c status
    step "${user[@]}" image remove project demo-upload "$alt_project"
else
    echo
    echo "(no cloud local-alt in clouds.yaml: no second project to share the image with)"
fi
step "${user[@]}" server delete demo-from-image --wait
step "${user[@]}" image delete demo-upload-snap demo-upload

echo
echo "== A network behind a router =="
step "${user[@]}" network create demo-network -c name -c status
step "${user[@]}" subnet create demo-subnet --network demo-network \
    --subnet-range 10.20.30.0/24 -c name -c cidr -c gateway_ip
step "${user[@]}" router create demo-router -c name -c status
step "${user[@]}" router set demo-router --external-gateway public
step "${user[@]}" router add subnet demo-router demo-subnet
step "${user[@]}" server create demo-routed --image cirros-0.6.2-x86_64-disk \
    --flavor m1.tiny --network demo-network --wait -c name -c status -c addresses
# the floating IP reaches the server's subnet through demo-router
fip=$("${user[@]}" floating ip create public -f value -c floating_ip_address)
step "${user[@]}" server add floating ip demo-routed "$fip"
step "${user[@]}" server show demo-routed -c addresses
step "${user[@]}" router show demo-router -c name -c external_gateway_info -c interfaces_info
step "${user[@]}" server remove floating ip demo-routed "$fip"
step "${user[@]}" floating ip delete "$fip"
step "${user[@]}" server delete demo-routed --wait
# the router's interface still holds an address on the subnet
fails "${user[@]}" subnet delete demo-subnet
step "${user[@]}" router remove subnet demo-router demo-subnet
step "${user[@]}" router unset demo-router --external-gateway
step "${user[@]}" router delete demo-router
step "${user[@]}" subnet delete demo-subnet
step "${user[@]}" network delete demo-network

echo
echo "== Objects with metadata =="
printf 'Notes kept in the object store by occli.\n' >notes.txt
step md5sum notes.txt
step "${user[@]}" container create demo-container
step "${user[@]}" object create demo-container notes.txt
step "${user[@]}" object set demo-container notes.txt --property author=demo
step "${user[@]}" object list demo-container
step "${user[@]}" object show demo-container notes.txt
step_md5 "${user[@]}" object save --file - demo-container notes.txt
step "${user[@]}" container show demo-container
step "${user[@]}" object delete demo-container notes.txt
step "${user[@]}" container delete demo-container
echo
echo "Walkthrough finished."
