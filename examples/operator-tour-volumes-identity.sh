#!/usr/bin/env bash
# An operator's tour of volumes and identity with occli against a cloud
# named "local-admin" (an admin), "local" (the demo project's member) and
# "local-alt" (a second project's), as the local cloud's clouds.yaml
# defines them: a private volume type, a backup and its restore, a volume
# moved to another project; a group's role on a project, an application
# credential, an endpoint disabled. Start a local cloud (occli-localcloud
# start prints how) and export OS_CLIENT_CONFIG_FILE, then run it.
set -euo pipefail

# the command as you would type it (arguments with spaces quoted)
shown() { local a out=(); for a in "$@"; do [[ $a =~ [[:space:]] ]] && a="'$a'"; out+=("$a"); done; printf '%s' "${out[*]}"; }
# bold commands on a terminal only, so a log or a pipe gets plain text
if [ -t 1 ]; then bold=$'\033[1m' plain=$'\033[0m'; else bold='' plain=''; fi
step() { printf '\n%s$ %s%s\n' "$bold" "$(shown "$@")" "$plain"; "$@"; }
# a step that is expected to fail: show its one-line error and go on
fails() { printf '\n%s$ %s%s   # expected to fail\n' "$bold" "$(shown "$@")" "$plain"; if "$@"; then echo "unexpected success" >&2; exit 1; fi; }
# a step whose table is kept too, for field NAME to read a value from it
kept() { printf '\n%s$ %s%s\n' "$bold" "$(shown "$@")" "$plain"; "$@" | tee "$work/kept"; }
field() { awk -F'|' -v k="$1" '{f = $2; v = $3; gsub(/^ +| +$/, "", f); gsub(/^ +| +$/, "", v)} f == k {print v}' "$work/kept"; }
# wait (a minute at most) until `command -f value -c status` says available:
# a backup and its restore have no --wait
available() {
    local i
    for i in $(seq 120); do
        [ "$("$@" -f value -c status)" = available ] && return 0
        sleep 0.5
    done
    echo "not available after a minute: $(shown "$@")" >&2
    return 1
}
# wait (a minute at most) until `command` fails: a deleted volume is gone
gone() {
    local i
    for i in $(seq 120); do
        "$@" >/dev/null 2>&1 || return 0
        sleep 0.5
    done
    echo "still there after a minute: $(shown "$@")" >&2
    return 1
}
admin=(occli --os-cloud local-admin)
user=(occli --os-cloud local)
alt=(occli --os-cloud local-alt)
# the group's member, logged in with its password to the group's project;
# --no-cache: no token of an earlier run's user of that name is reused
member=(occli --no-cache --os-cloud local --os-username tour-member
    --os-password tour-member-secret --os-project-name tour-project)

# The endpoint this tour disables: heat's admin one (not keystone's, which
# every login needs).
heat_admin() { "${admin[@]}" endpoint list --service heat --interface admin -f value -c ID; }

# Remove what this tour makes (and nothing else), quietly: on entry, for
# what an interrupted earlier run left, and on exit after a failure.
tidy() {
    local id
    set +e
    for id in $(heat_admin 2>/dev/null); do
        "${admin[@]}" endpoint set --enable "$id" >/dev/null 2>&1
    done
    "${admin[@]}" user delete tour-member >/dev/null 2>&1
    "${admin[@]}" group delete tour-ops >/dev/null 2>&1
    "${admin[@]}" project delete tour-project >/dev/null 2>&1
    for id in $("${user[@]}" volume transfer request list -f value -c ID -c Name 2>/dev/null |
        awk '$2 == "tour-move" {print $1}'); do
        "${user[@]}" volume transfer request delete "$id" >/dev/null 2>&1
    done
    "${user[@]}" volume backup delete tour-backup >/dev/null 2>&1
    "${user[@]}" volume delete tour-vol tour-restored >/dev/null 2>&1
    "${alt[@]}" volume delete tour-vol >/dev/null 2>&1
    gone "${user[@]}" volume backup show tour-backup
    gone "${user[@]}" volume show tour-vol
    gone "${user[@]}" volume show tour-restored
    gone "${alt[@]}" volume show tour-vol
    "${admin[@]}" volume type delete tour-gold >/dev/null 2>&1
    set -e
}
tidy
work="$(mktemp -d "${TMPDIR:-/tmp}/occli-operator-tour.XXXXXX")"
trap 'status=$?; trap - EXIT; rm -rf "$work"; [ "$status" -eq 0 ] || tidy; exit "$status"' EXIT

echo "== A private volume type, a backup, a transfer =="
# a private type: only admins and the projects given access see or use it
step "${admin[@]}" volume type create tour-gold --private --project demo \
    --description "for demo only"
step "${admin[@]}" volume type show tour-gold -c name -c is_public \
    -c access_project_ids
step "${user[@]}" volume create tour-vol --size 1 --type tour-gold --wait \
    -c name -c status -c volume_type
# to any other project the type does not exist
fails "${alt[@]}" volume create tour-other --size 1 --type tour-gold
# a backup is stored in the object store as Cinder's Swift driver stores it
step "${user[@]}" volume backup create tour-vol --name tour-backup
available "${user[@]}" volume backup show tour-backup
step "${user[@]}" volume backup show tour-backup -c name -c status -c size
step "${user[@]}" volume backup restore tour-backup tour-restored
available "${user[@]}" volume show tour-restored
step "${user[@]}" volume show tour-restored -c name -c status -c size -c volume_type
# a transfer request's auth key is shown once, when it is made: the other
# project accepts the request with it and then owns the volume
kept "${user[@]}" volume transfer request create tour-vol --name tour-move
transfer=$(field id)
key=$(field auth_key)
step "${user[@]}" volume transfer request show tour-move
step "${alt[@]}" volume transfer request accept "$transfer" --auth-key "$key"
step "${alt[@]}" volume list -c Name -c Status -c Size
step "${user[@]}" volume list -c Name -c Status -c Size
step "${alt[@]}" volume delete tour-vol
step "${user[@]}" volume delete tour-restored
step "${user[@]}" volume backup delete tour-backup
gone "${alt[@]}" volume show tour-vol
gone "${user[@]}" volume show tour-restored
gone "${user[@]}" volume backup show tour-backup
step "${admin[@]}" volume type delete tour-gold

echo
echo "== A group's role, an application credential =="
step "${admin[@]}" project create tour-project --description "made by the tour" \
    -c name -c enabled
step "${admin[@]}" user create tour-member --password tour-member-secret \
    -c name -c enabled
step "${admin[@]}" group create tour-ops --description "tour operators"
# the group holds the role; its members get it on the project
step "${admin[@]}" role add --group tour-ops --project tour-project member
step "${admin[@]}" group add user tour-ops tour-member
step "${admin[@]}" group contains user tour-ops tour-member
step "${admin[@]}" role assignment list --project tour-project --effective --names
step "${admin[@]}" project show tour-project -c name -c id
step "${member[@]}" token issue -c project_id -c user_id
# an application credential logs in to its project with its secret, shown
# once, in place of the user's password (and no project: it has its own)
kept "${member[@]}" application credential create tour-cred \
    --description "made by the tour"
cred=$(field ID)
secret=$(field Secret)
auth_url=$("${user[@]}" configuration show -f value -c auth.auth_url)
# the secret goes after "=": it may begin with "-"
cred_login=(occli --no-cache --os-auth-url "$auth_url" --os-auth-type v3applicationcredential
    --os-application-credential-id "$cred" --os-application-credential-secret="$secret")
step "${cred_login[@]}" token issue -c project_id -c user_id
step "${member[@]}" application credential delete tour-cred
fails "${cred_login[@]}" token issue -c project_id -c user_id
step "${admin[@]}" group remove user tour-ops tour-member
step "${admin[@]}" user delete tour-member
step "${admin[@]}" group delete tour-ops
step "${admin[@]}" project delete tour-project

echo
echo "== The catalog as data =="
# a disabled endpoint leaves the catalog of every token issued after;
# --no-cache asks for a new token (a cached one keeps its catalog)
endpoint=$(heat_admin)
step "${admin[@]}" endpoint show "$endpoint" -c interface -c enabled -c url
step "${admin[@]}" endpoint set --disable "$endpoint"
step "${admin[@]}" --no-cache catalog list
step "${admin[@]}" endpoint set --enable "$endpoint"
step "${admin[@]}" --no-cache catalog list

echo
echo "Operator tour of volumes and identity finished."
