#!/usr/bin/env bash
# A walkthrough of occli against a cloud named "local" (a member) and
# "local-admin" (an admin), as the local cloud's clouds.yaml defines them.
# Run it through `make demo`, or start a local cloud yourself and export
# OS_CLIENT_CONFIG_FILE (occli-localcloud start prints how).
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
# the command as you would type it (arguments with spaces quoted)
shown() { local a out=(); for a in "$@"; do [[ $a =~ [[:space:]] ]] && a="'$a'"; out+=("$a"); done; printf '%s' "${out[*]}"; }
# bold commands on a terminal only, so a log or a pipe gets plain text
if [ -t 1 ]; then bold=$'\033[1m' plain=$'\033[0m'; else bold='' plain=''; fi
step() { printf '\n%s$ %s%s\n' "$bold" "$(shown "$@")" "$plain"; "$@"; }
# a step reading stdin: step_in TEXT command... shows and runs  echo TEXT | command...
step_in() { local text=$1; shift; printf '\n%s$ echo %s | %s%s\n' "$bold" "$(shown "$text")" "$(shown "$@")" "$plain"; printf '%s\n' "$text" | "$@"; }
# a step that is expected to fail: show its one-line error and go on
fails() { printf '\n%s$ %s%s   # expected to fail\n' "$bold" "$(shown "$@")" "$plain"; if "$@"; then echo "unexpected success" >&2; exit 1; fi; }
user=(occli --os-cloud local)
admin=(occli --os-cloud local-admin)

# Remove what this walkthrough makes (and nothing else), quietly: on entry,
# for what an interrupted earlier run left, and on exit, whatever happened.
tidy() {
    local id agg host
    set +e
    for id in $("${user[@]}" software deployment list --server demo-vm -f value -c ID 2>/dev/null); do
        "${user[@]}" software deployment delete "$id" >/dev/null 2>&1
    done
    for id in $("${user[@]}" software config list -f value -c ID -c Name 2>/dev/null | awk '$2 == "hello" {print $1}'); do
        "${user[@]}" software config delete "$id" >/dev/null 2>&1
    done
    "${user[@]}" server delete demo-vm --wait >/dev/null 2>&1
    for id in $("${user[@]}" port list --server demo-net -f value -c ID 2>/dev/null); do
        for ip in $("${user[@]}" floating ip list --port "$id" -f value -c ID 2>/dev/null); do
            "${user[@]}" floating ip delete "$ip" >/dev/null 2>&1
        done
    done
    "${user[@]}" server delete demo-net --wait >/dev/null 2>&1
    "${user[@]}" volume delete demo-data >/dev/null 2>&1
    "${user[@]}" server delete demo-grouped --wait >/dev/null 2>&1
    "${user[@]}" server group delete demo-group >/dev/null 2>&1
    "${admin[@]}" server delete london-vm --wait >/dev/null 2>&1
    for agg in london-agg paris-agg; do
        for host in host1 host2 host3; do
            "${admin[@]}" aggregate remove host "$agg" "$host" >/dev/null 2>&1
        done
        "${admin[@]}" aggregate delete "$agg" >/dev/null 2>&1
    done
    set -e
}
tidy
trap 'status=$?; trap - EXIT; [ "$status" -eq 0 ] || tidy; exit "$status"' EXIT

echo "== Servers =="
step "${user[@]}" flavor list
step "${user[@]}" image list
# occli-simulated-agent=false: should the local cloud run its simulated
# in-server agent (make demo does), it leaves this server's software
# deployments to the signals sent by hand below
step "${user[@]}" server create demo-vm --image cirros-0.6.2-x86_64-disk \
    --flavor m1.tiny --nic auto --property role=demo \
    --property occli-simulated-agent=false --wait
step "${user[@]}" server list
step "${user[@]}" server list -f json
step "${user[@]}" server stop demo-vm --wait
step "${user[@]}" server start demo-vm --wait
step "${user[@]}" server shelve demo-vm --wait
step "${user[@]}" server unshelve demo-vm --wait
step "${user[@]}" server event list demo-vm
step "${user[@]}" server image create demo-vm --name demo-vm-snap --wait -c name -c status
fails "${user[@]}" console url show demo-vm   # no console proxy: nova's 400
step "${user[@]}" server show demo-vm -c name -c status -c addresses -c metadata
fails "${user[@]}" server show no-such-vm

echo
echo "== Server groups and tags =="
step "${user[@]}" server group create demo-group --policy anti-affinity
step "${user[@]}" server create demo-grouped --image cirros-0.6.2-x86_64-disk \
    --flavor m1.tiny --nic none --server-group demo-group --wait
step "${user[@]}" server group show demo-group -c name -c policy -c members
step "${user[@]}" server set --tag web --tag demo demo-grouped
step "${user[@]}" server list --tags web -c Name -c Status
step "${user[@]}" server delete demo-grouped --wait
step "${user[@]}" server group delete demo-group

echo
echo "== Networks, floating IPs and volumes =="
step "${user[@]}" network list
step "${user[@]}" server create demo-net --image cirros-0.6.2-x86_64-disk \
    --flavor m1.tiny --network private --wait -c name -c status -c addresses
step "${user[@]}" volume create demo-data --size 1 --wait -c name -c status -c size
step "${user[@]}" server add volume demo-net demo-data
step "${user[@]}" volume list --name demo-data
# an attached volume cannot be deleted
fails "${user[@]}" volume delete demo-data
fip=$("${user[@]}" floating ip create public -f value -c floating_ip_address)
step "${user[@]}" server add floating ip demo-net "$fip"
step "${user[@]}" server show demo-net -c addresses
step "${user[@]}" server remove floating ip demo-net "$fip"
step "${user[@]}" floating ip delete "$fip"
step "${user[@]}" server remove volume demo-net demo-data
step "${user[@]}" volume delete demo-data
step "${user[@]}" server delete demo-net --wait

echo
echo "== Host aggregates and availability zones (admin) =="
step "${admin[@]}" compute service list --service nova-compute
step "${admin[@]}" aggregate create london-agg --zone london --property ssd=true
# demo-vm runs on host1 (in the default zone "nova"): nova refuses to move a
# host with servers into another zone
vm_id=$("${user[@]}" server show demo-vm -f value -c id)
step "${admin[@]}" server show "$vm_id" -c name -c OS-EXT-SRV-ATTR:host
fails "${admin[@]}" aggregate add host london-agg host1
step "${admin[@]}" aggregate add host london-agg host2
step "${admin[@]}" aggregate add host london-agg host3
step "${admin[@]}" aggregate set london-agg --property gpu=false --property tier=gold
step "${admin[@]}" aggregate unset london-agg --property gpu
step "${admin[@]}" aggregate show london-agg
step "${admin[@]}" availability zone list --long
step "${admin[@]}" server create london-vm --image cirros-0.6.2-x86_64-disk \
    --flavor m1.tiny --nic none --availability-zone london --wait \
    -c name -c OS-EXT-AZ:availability_zone -c OS-EXT-SRV-ATTR:host
step "${admin[@]}" aggregate create paris-agg --zone paris
fails "${admin[@]}" aggregate add host paris-agg host2
step "${admin[@]}" aggregate list --long
fails "${user[@]}" aggregate list

echo
echo "== Software configs and deployments =="
step "${user[@]}" software config create hello --group script \
    --config-file "$here/software-config/hello.sh" \
    --definition-file "$here/software-config/hello-definition.yaml"
deployment=$("${user[@]}" software deployment create hello-deploy --config hello \
    --server demo-vm --input-value foo=occli --input-value extra=1 -f value -c id)
step "${user[@]}" software deployment show "$deployment"
# what the in-server agent reads (the derived config with the input values)
step "${user[@]}" software deployment metadata show demo-vm
# what the agent sends back when the script succeeded, via the Swift temp URL
step_in "Writing to /tmp/barmy" "${user[@]}" software deployment signal "$deployment" \
    --stdout - --output result="The file /tmp/barmy contains occli"
step "${user[@]}" software deployment show "$deployment" -c status -c status_reason
step "${user[@]}" software deployment output show "$deployment" --all
failing=$("${user[@]}" software deployment create hello-fails --config hello \
    --server demo-vm -f value -c id)
step "${user[@]}" software deployment signal "$failing" --status-code 3 --stderr - </dev/null
step "${user[@]}" software deployment show "$failing" -c status -c status_reason
step "${user[@]}" software deployment create hello-quiet --config hello \
    --server demo-vm --signal-transport NO_SIGNAL --wait -c status -c status_reason
step "${user[@]}" software deployment list --server demo-vm
step "${user[@]}" software deployment delete "$deployment" "$failing"

echo
echo "== Clean up =="
step "${user[@]}" server delete demo-vm --wait
step "${admin[@]}" server delete london-vm --wait
step "${admin[@]}" aggregate remove host london-agg host2
step "${admin[@]}" aggregate remove host london-agg host3
step "${admin[@]}" aggregate delete london-agg paris-agg
echo
echo "Walkthrough finished."
