#!/usr/bin/env bash
# An operator's tour of occli against a cloud named "local" (a member) and
# "local-admin" (an admin), as the local cloud's clouds.yaml defines them.
# Start a local cloud (occli-localcloud start prints how) and export
# OS_CLIENT_CONFIG_FILE, then run it.
set -euo pipefail

# the command as you would type it (arguments with spaces quoted)
shown() { local a out=(); for a in "$@"; do [[ $a =~ [[:space:]] ]] && a="'$a'"; out+=("$a"); done; printf '%s' "${out[*]}"; }
# bold commands on a terminal only, so a log or a pipe gets plain text
if [ -t 1 ]; then bold=$'\033[1m' plain=$'\033[0m'; else bold='' plain=''; fi
step() { printf '\n%s$ %s%s\n' "$bold" "$(shown "$@")" "$plain"; "$@"; }
# a step that is expected to fail: show its one-line error and go on
fails() { printf '\n%s$ %s%s   # expected to fail\n' "$bold" "$(shown "$@")" "$plain"; if "$@"; then echo "unexpected success" >&2; exit 1; fi; }
user=(occli --os-cloud local)
admin=(occli --os-cloud local-admin)

echo "== Quotas, usage and limits =="
# what the demo project may have and uses; its members may look, not change
step "${user[@]}" quota show --usage
step "${user[@]}" limits show --absolute
fails "${user[@]}" quota set demo --instances 2
# the admin caps the project: a create over the cap is refused by nova's
# quota check (403) before anything is made; --max is trimmed to fit
step "${admin[@]}" quota set demo --instances 2 --cores 2
step "${user[@]}" server create tour-vm --image cirros-0.6.2-x86_64-disk \
    --flavor m1.tiny --nic none --min 1 --max 5 --wait
step "${user[@]}" server list -c Name -c Status
fails "${user[@]}" server create tour-more --image cirros-0.6.2-x86_64-disk \
    --flavor m1.tiny --nic none
fails "${user[@]}" server resize tour-vm-1 --flavor m1.medium
# limits a microversion removed are refused before any request
fails "${admin[@]}" quota set demo --injected-files 3
step "${admin[@]}" --os-compute-api-version 2.56 quota set demo --injected-files 3
# the default quota class holds every project's defaults
step "${admin[@]}" quota show --class default
step "${admin[@]}" quota show --default demo
# server-hours per project, and the usage audit log
step "${user[@]}" usage show
step "${admin[@]}" usage list
step "${admin[@]}" usage audit
step "${admin[@]}" quota delete demo
step "${user[@]}" quota show -c Resource -c Limit
step "${user[@]}" server delete tour-vm-1 tour-vm-2 --wait

echo
echo "== Flavors, hosts and key pairs =="
# a private flavor for the demo project only: others neither see nor boot it
step "${admin[@]}" flavor create tour.gold --id tour-gold --vcpus 1 \
    --ram 512 --disk 1 --private --project demo \
    --property hw:cpu_policy=shared --description "demo's own"
step "${user[@]}" flavor show tour-gold -c name -c properties -c description
step "${admin[@]}" flavor show tour-gold -c name -c access_project_ids
step "${admin[@]}" flavor unset tour-gold --project demo
fails "${user[@]}" flavor show tour-gold
fails "${user[@]}" flavor create tour.mine --ram 256
# a host under maintenance takes no new servers; a compute service cannot
# be deleted while its host runs servers (409)
step "${admin[@]}" compute service set host1 nova-compute --disable \
    --disable-reason maintenance
step "${admin[@]}" compute service list --service nova-compute --long
step "${admin[@]}" availability zone list --long
step "${admin[@]}" compute service set host1 nova-compute --enable
step "${admin[@]}" server create tour-host --image cirros-0.6.2-x86_64-disk \
    --flavor m1.tiny --nic none --host host1 --wait -c name -c status
step "${admin[@]}" hypervisor show host1 -c hypervisor_hostname -c servers \
    -c uptime
step "${admin[@]}" hypervisor stats show -c count -c running_vms
host1=$("${admin[@]}" compute service list --service nova-compute \
    --host host1 -f value -c ID)
fails "${admin[@]}" compute service delete "$host1"
step "${admin[@]}" server delete tour-host --wait
# a generated key pair: the private key is printed (keypair create k > k.pem,
# then chmod 600 k.pem), or written to a new file of mode 0600
keys=$(mktemp -d)
step "${user[@]}" keypair create tour-key --private-key "$keys/tour-key.pem"
step ls -l "$keys/tour-key.pem"
rm -r "$keys"
step "${admin[@]}" keypair list --user demo
step "${user[@]}" keypair delete tour-key
step "${admin[@]}" flavor delete tour-gold

echo
echo "Operator tour finished."
