"""Authorization of nova's old proxy and service routes (issue 23), nova
34's default policies: the image proxy, ``os-hosts`` and
``os-tenant-networks`` (gone at the matrix's microversion; the tenant
networks' create and delete 410 for everybody),
``os-server-external-events`` and ``os-assisted-volume-snapshots``
(``service_or_admin``: the admin here, everybody else the policy's 403;
the admin's answers are the refusals of a volume attached to no server and
of a delete without ``delete_info``)."""


def _event(ids):
    return {"events": [{"name": "network-changed", "server_uuid": ids["server_id"]}]}


def _snapshot(ids):
    info = {"snapshot_id": "s", "type": "qcow2", "new_file": "f"}
    return {"snapshot": {"volume_id": ids["server_id"], "create_info": info}}


def rules():
    from tests.security.test_authz_matrix import rule

    return {
        ("compute", "POST", "/v2.1/os-server-external-events"): rule("admin", body=_event),
        # the admin's answers: no such attached volume, no delete_info (400)
        ("compute", "POST", "/v2.1/os-assisted-volume-snapshots"): rule(
            "admin", 400, body=_snapshot
        ),
        ("compute", "DELETE", "/v2.1/os-assisted-volume-snapshots/{snapshot_id}"): rule(
            "admin", 400, params=lambda ids: {"snapshot_id": "s"}
        ),
        # proxies up to 2.35 (the matrix asks at the latest); nova-network's
        # writes are 410 for every caller
        ("compute", "GET", "/v2.1/os-tenant-networks"): rule("gone"),
        ("compute", "GET", "/v2.1/os-tenant-networks/{network_id}"): rule("gone"),
        ("compute", "POST", "/v2.1/os-tenant-networks"): rule("any", 410),
        ("compute", "DELETE", "/v2.1/os-tenant-networks/{network_id}"): rule("any", 410),
        # the image proxy (up to 2.35, metadata up to 2.38; Glance's own
        # rules as the caller: tests/unit/localcloud/test_compute_image_proxy.py)
        **{
            ("compute", method, "/v2.1/images" + path): rule(
                "gone", params=lambda ids: {"key": "k"}
            )
            for method, path in (
                ("GET", ""),
                ("GET", "/detail"),
                ("GET", "/{image_id}"),
                ("DELETE", "/{image_id}"),
                ("GET", "/{image_id}/metadata"),
                ("POST", "/{image_id}/metadata"),
                ("PUT", "/{image_id}/metadata"),
                ("GET", "/{image_id}/metadata/{key}"),
                ("PUT", "/{image_id}/metadata/{key}"),
                ("DELETE", "/{image_id}/metadata/{key}"),
            )
        },
        # admin only up to 2.42 (tests/unit/localcloud/test_compute_legacy_hosts.py)
        **{
            ("compute", method, "/v2.1/os-hosts" + path): rule(
                "gone", params=lambda ids: {"host_name": "host1"}
            )
            for method, path in (
                ("GET", ""),
                ("GET", "/{host_name}"),
                ("PUT", "/{host_name}"),
                ("GET", "/{host_name}/startup"),
                ("GET", "/{host_name}/shutdown"),
                ("GET", "/{host_name}/reboot"),
            )
        },
    }
