"""A service's route table, built once per process and shared by every
cloud (issue 26: occli.testing starts a cloud per test): it holds nothing of
any cloud, and each cloud's handlers still serve that cloud's data."""

import functools
import types

import occli.testing


def _holders(obj, seen):
    """The Service and LocalCloud objects ``obj`` (a handler) reaches through
    bound methods, closures, defaults, partials, containers and attributes."""
    from occli.localcloud.app import Service
    from occli.localcloud.cloud import LocalCloud

    pending = [obj]
    while pending:
        value = pending.pop()
        if id(value) in seen or isinstance(value, (type, types.ModuleType)):
            continue
        seen.add(id(value))
        if isinstance(value, (Service, LocalCloud)):
            yield value
        elif isinstance(value, types.MethodType):
            pending += [value.__self__, value.__func__]
        elif isinstance(value, types.FunctionType):
            for cell in value.__closure__ or ():
                try:
                    pending.append(cell.cell_contents)
                except ValueError:  # an empty cell
                    pass
            pending += list(value.__defaults__ or ())
            pending += list((value.__kwdefaults__ or {}).values())
        elif isinstance(value, functools.partial):
            pending += [value.func, *value.args, *value.keywords.values()]
        elif isinstance(value, (list, tuple, set, frozenset)):
            pending += list(value)
        elif isinstance(value, dict):
            pending += list(value.values())
        elif hasattr(value, "__dict__"):
            pending += list(vars(value).values())


def test_no_shared_handler_holds_a_service_or_a_cloud():
    """Every route of a shared table (all but the fault service's, which
    are its own per cloud) reaches no service nor cloud: a handler finds
    its service through ``req.cloud``, so no cloud answers for another."""
    from occli.localcloud import app

    with occli.testing.start_local_cloud() as cloud:
        shared = {id(r) for table in app._ROUTE_TABLES.values() for r in table}
        checked = 0
        for svc in cloud.cloud.services:
            for route in svc.routes:
                if id(route) in shared:
                    checked += 1
                    held = list(_holders(route.handler, set()))
                    assert held == [], (type(svc).__name__, route.method, route.pattern, held)
        assert checked > 500


def test_two_clouds_share_the_routes_not_the_lists():
    """Two clouds' services hold the same Route objects in lists of their
    own: a route one cloud's service adds is not another's."""
    with occli.testing.start_local_cloud() as one, occli.testing.start_local_cloud() as two:
        for a, b in zip(one.cloud.services, two.cloud.services, strict=True):
            assert type(a) is type(b) and a is not b
            assert a.routes is not b.routes
            if type(a).__name__ != "AdminService":
                assert [id(r) for r in a.routes] == [id(r) for r in b.routes]
        before = len(two.cloud.compute.routes)
        one.cloud.compute.route("GET", "/only-here", lambda req: None)
        assert len(two.cloud.compute.routes) == before


def test_each_cloud_answers_from_its_own_store():
    """The shared handlers read and write the store of the cloud the request
    came to: a flavor, an image and a network made in one cloud are not in
    the other, and the other's fault rules do not fire."""
    with occli.testing.start_local_cloud() as one, occli.testing.start_local_cloud() as two:
        one.seed_flavor("only-in-one")
        one.seed_image("image-of-one")
        admin = one.admin_client()
        admin.networks.create(name="net-of-one")
        two.add_fault("^/compute/v2.1/flavors", status=503, count=5)

        def names(fixture):
            client = fixture.admin_client()
            return (
                {f.name for f in client.flavors.list()},
                {i.name for i in client.images.list()},
                {n.name for n in client.networks.list()},
            )

        flavors, images, networks = names(one)
        assert "only-in-one" in flavors
        assert "image-of-one" in images
        assert "net-of-one" in networks
        assert two.faults.rules()[0]["count"] == 5
        two.faults.clear()
        flavors, images, networks = names(two)
        assert "only-in-one" not in flavors
        assert "image-of-one" not in images
        assert "net-of-one" not in networks
