"""Aggregate and availability zone managers and commands (requests-mock)."""

import copy
import json

import pytest

from occli import exceptions

from .fakes import COMPUTE
from .fakes import IMAGE
from .fakes import load_fixture
from .fakes import requests_to

AGGS = COMPUTE + "/os-aggregates"
IMAGE_ID = "70a599e0-31e7-49b7-b260-868f441e862b"


def sample(name, version="v2.81"):
    parts = ("compute", "os-aggregates") + ((version,) if version else ())
    return copy.deepcopy(load_fixture(*(parts + (name,))))


def nova_error(status, message):
    key = {400: "badRequest", 403: "forbidden", 404: "itemNotFound", 409: "conflictingRequest"}[
        status
    ]
    return {"status_code": status, "json": {key: {"code": status, "message": message}}}


@pytest.fixture
def aggs(mock_cloud):
    """``GET /os-aggregates`` with two aggregates; ``/1`` shows the first."""
    m = mock_cloud.mock
    first = sample("aggregates-get-resp.json")["aggregate"]
    first.update(
        name="agg1", hosts=["host1"], metadata={"availability_zone": "london", "ssd": "true"}
    )
    second = dict(
        first,
        id=2,
        name="agg2",
        hosts=[],
        metadata={},
        availability_zone=None,
        uuid="c0a3c2d2-6c1e-4b7e-9a1d-3f0e8c1b2a44",
    )
    m.get(AGGS, json={"aggregates": [first, second]})
    m.get(AGGS + "/1", json={"aggregate": first})
    m.get(AGGS + "/2", json={"aggregate": second})
    m.get(AGGS + "/42", **nova_error(404, "Aggregate 42 could not be found."))
    return [first, second]


def action_bodies(mock, agg_id=1):
    return [r.json() for r in requests_to(mock, "POST", "/os-aggregates/%s/action" % agg_id)]


# -- manager ---------------------------------------------------------------


def test_list_parses_sample(client, mock_cloud):
    body = sample("aggregates-list-get-resp.json")
    mock_cloud.mock.get(AGGS, json=body)
    got = list(client.aggregates.list())
    assert [a.to_dict() for a in got] == body["aggregates"]
    assert got[0].uuid == body["aggregates"][0]["uuid"]


def test_get_by_object_or_id_uses_integer_url(client, aggs, mock_cloud):
    agg = client.aggregates.get(1)
    assert agg.name == "agg1"
    again = client.aggregates.get(agg)
    assert again.id == 1
    sent = requests_to(mock_cloud.mock, "GET", "/os-aggregates/1")
    assert len(sent) == 2
    assert sent[0].headers["OpenStack-API-Version"] == "compute 2.96"


def test_create_sends_name_and_zone(client, mock_cloud):
    mock_cloud.mock.post(AGGS, json=sample("aggregate-post-resp.json"))
    agg = client.aggregates.create("name", availability_zone="london")
    assert requests_to(mock_cloud.mock, "POST", "/os-aggregates")[0].json() == sample(
        "aggregate-post-req.json"
    )
    assert agg.availability_zone == "london" and "hosts" not in agg
    client.aggregates.create("plain")
    assert mock_cloud.mock.last_request.json() == {"aggregate": {"name": "plain"}}


def test_update_sends_only_given_fields(client, mock_cloud):
    mock_cloud.mock.put(AGGS + "/1", json=sample("aggregate-update-post-resp.json"))
    agg = client.aggregates.update(1, name="newname", availability_zone="nova2")
    assert mock_cloud.mock.last_request.json() == sample("aggregate-update-post-req.json")
    assert agg.metadata == {"availability_zone": "nova2"}
    client.aggregates.update(agg, availability_zone="z")
    assert mock_cloud.mock.last_request.json() == {"aggregate": {"availability_zone": "z"}}
    with pytest.raises(ValueError):
        client.aggregates.update(1)


def test_delete(client, mock_cloud):
    mock_cloud.mock.delete(
        AGGS + "/1", status_code=200, text="", headers={"x-openstack-request-id": "req-1"}
    )
    assert client.aggregates.delete(1).request_ids == ["req-1"]
    assert requests_to(mock_cloud.mock, "DELETE", "/os-aggregates/1")


@pytest.mark.parametrize(
    "method, args, req, resp",
    [
        (
            "add_host",
            ("compute",),
            "aggregate-add-host-post-req.json",
            "aggregates-add-host-post-resp.json",
        ),
        (
            "remove_host",
            ("compute",),
            "aggregate-remove-host-post-req.json",
            "aggregates-remove-host-post-resp.json",
        ),
        (
            "set_metadata",
            ({"key": "value"},),
            "aggregate-metadata-post-req.json",
            "aggregates-metadata-post-resp.json",
        ),
    ],
)
def test_actions_send_sample_bodies(client, mock_cloud, method, args, req, resp):
    mock_cloud.mock.post(
        AGGS + "/1/action", json=sample(resp), headers={"x-openstack-request-id": "req-a"}
    )
    agg = getattr(client.aggregates, method)(1, *args)
    assert mock_cloud.mock.last_request.json() == sample(req)
    assert agg.to_dict() == sample(resp)["aggregate"]
    assert agg.request_ids == ["req-a"]


def test_set_metadata_none_deletes(client, mock_cloud):
    mock_cloud.mock.post(AGGS + "/1/action", json=sample("aggregates-get-resp.json"))
    client.aggregates.set_metadata(1, {"gone": None, "empty": ""})
    assert mock_cloud.mock.last_request.text == (
        '{"set_metadata": {"metadata": {"gone": null, "empty": ""}}}'
    )


def test_cache_images_at_281(client, mock_cloud):
    mock_cloud.mock.post(
        AGGS + "/1/images", status_code=202, text="", headers={"x-openstack-request-id": "req-c"}
    )
    assert client.aggregates.cache_images(1, [IMAGE_ID]).request_ids == ["req-c"]
    sent = mock_cloud.mock.last_request
    assert sent.json() == sample("aggregate-images-post-req.json")
    assert sent.headers["OpenStack-API-Version"] == "compute 2.96"


def test_cache_images_below_281_is_refused_before_any_request(mock_cloud):
    from keystoneauth1 import session

    from occli.client import Client

    c = Client(session=session.Session(), compute_api_version="2.80")
    with pytest.raises(exceptions.UnsupportedVersion) as err:
        c.aggregates.cache_images(1, [IMAGE_ID])
    assert "2.81 or later" in str(err.value)
    assert not requests_to(mock_cloud.mock, "POST", "/images")


def test_find_resource_by_id_name_and_uuid(client, aggs, mock_cloud):
    assert client.aggregates.find_resource("1").name == "agg1"
    assert not requests_to(mock_cloud.mock, "GET", "/os-aggregates?")
    assert client.aggregates.find_resource("agg2").id == 2
    assert client.aggregates.find_resource(aggs[1]["uuid"]).id == 2
    # a name is never sent as a URL id (nova would answer 400)
    assert not requests_to(mock_cloud.mock, "GET", "/os-aggregates/agg2")


def test_find_resource_not_found_and_ambiguous(client, aggs, mock_cloud):
    with pytest.raises(exceptions.NotFound) as err:
        client.aggregates.find_resource("42")
    assert str(err.value) == ("No aggregate with a name or ID of '42' exists. (HTTP 404)")
    twin = dict(aggs[1], id=3, name="agg1")
    mock_cloud.mock.get(AGGS, json={"aggregates": aggs + [twin]})
    with pytest.raises(exceptions.NoUniqueMatch) as err:
        client.aggregates.find_resource("agg1")
    assert "(1, 3)" in str(err.value)


def test_availability_zone_manager(client, mock_cloud):
    zones = {
        "availabilityZoneInfo": [
            {"zoneName": "nova", "zoneState": {"available": True}, "hosts": None}
        ]
    }
    mock_cloud.mock.get(COMPUTE + "/os-availability-zone", json=zones)
    mock_cloud.mock.get(COMPUTE + "/os-availability-zone/detail", json=zones)
    assert [z.zoneName for z in client.availability_zones.list()] == ["nova"]
    list(client.availability_zones.list(detailed=True))
    assert requests_to(mock_cloud.mock, "GET", "/os-availability-zone/detail")


# -- commands ----------------------------------------------------------------


def test_aggregate_list(cli, aggs):
    code, out, err = cli("aggregate", "list", "-f", "json")
    assert code == 0, err
    # UUID without --long too, as OSC's
    assert json.loads(out) == [
        {"ID": 1, "UUID": aggs[0]["uuid"], "Name": "agg1", "Availability Zone": "london"},
        {"ID": 2, "UUID": aggs[1]["uuid"], "Name": "agg2", "Availability Zone": None},
    ]


def test_aggregate_list_long(cli, aggs):
    code, out, err = cli("aggregate", "list", "--long", "-f", "json")
    assert code == 0, err
    first = json.loads(out)[0]
    assert first == {
        "ID": 1,
        "UUID": aggs[0]["uuid"],
        "Name": "agg1",
        "Availability Zone": "london",
        "Properties": {"availability_zone": "london", "ssd": "true"},
        "Hosts": ["host1"],
    }
    code, out, err = cli("aggregate", "list", "--long")
    # osc-lib's DictColumn, as OSC's aggregate list --long
    assert "availability_zone='london', ssd='true'" in out and "host1" in out


def test_aggregate_list_long_before_241_has_no_uuid(cli, aggs):
    code, out, err = cli(
        "--os-compute-api-version", "2.40", "aggregate", "list", "--long", "-f", "json"
    )
    assert code == 0, err
    assert "UUID" not in json.loads(out)[0]


def test_aggregate_show_renames_metadata(cli, aggs):
    code, out, err = cli("aggregate", "show", "agg1", "-f", "json")
    assert code == 0, err
    shown = json.loads(out)
    assert shown["properties"] == {"availability_zone": "london", "ssd": "true"}
    assert shown["availability_zone"] == "london"
    assert shown["hosts"] == ["host1"] and "metadata" not in shown


def test_aggregate_create_with_properties(cli, mock_cloud):
    m = mock_cloud.mock
    m.post(AGGS, json=sample("aggregate-post-resp.json"))
    m.post(AGGS + "/1/action", json=sample("aggregates-metadata-post-resp.json"))
    code, out, err = cli(
        "aggregate",
        "create",
        "name",
        "--zone",
        "london",
        "--property",
        "key=value",
        "--property",
        "empty=",
        "-f",
        "json",
    )
    assert code == 0, err
    assert requests_to(m, "POST", "/os-aggregates")[0].json() == sample("aggregate-post-req.json")
    assert action_bodies(m) == [{"set_metadata": {"metadata": {"key": "value", "empty": ""}}}]
    assert json.loads(out)["properties"]["key"] == "value"


def test_aggregate_create_undone_when_its_properties_are_refused(cli, mock_cloud):
    m = mock_cloud.mock
    m.post(AGGS, json=sample("aggregate-post-resp.json"))
    m.post(AGGS + "/1/action", **nova_error(400, "Invalid input for field"))
    m.delete(AGGS + "/1", status_code=200)
    code, out, err = cli("aggregate", "create", "name", "--property", "ok-key=" + "v" * 10)
    assert code == 1 and "Invalid input for field" in err
    # no half-made aggregate left to block a corrected retry with a 409
    assert len(requests_to(m, "DELETE", "/os-aggregates/1")) == 1


def test_aggregate_create_without_properties_makes_one_call(cli, mock_cloud):
    mock_cloud.mock.post(AGGS, json=sample("aggregate-post-resp.json"))
    code, out, err = cli("aggregate", "create", "name", "-f", "json")
    assert code == 0, err
    assert not action_bodies(mock_cloud.mock)
    assert json.loads(out)["name"] == "name"


@pytest.mark.parametrize(
    "prop, message",
    [
        ("novalue", "--property expects KEY=VALUE, got 'novalue'."),
        ("=v", "--property expects KEY=VALUE, got '=v'."),
        ("k=" + "v" * 256, "is longer than 255 characters"),
        # nova's key schema ^[a-zA-Z0-9-_:. ]{1,255}$, checked before creating
        ("bad/key=1", "--property key 'bad/key' is not valid"),
        ("ü=1", "--property key 'ü' is not valid"),
    ],
)
def test_malformed_property_is_a_clear_error(cli, mock_cloud, prop, message):
    code, out, err = cli("aggregate", "create", "x", "--property", prop)
    assert code == 2
    assert message in err
    assert not requests_to(mock_cloud.mock, "POST", "/os-aggregates")


def test_aggregate_set_name_zone_and_properties(cli, aggs, mock_cloud):
    m = mock_cloud.mock
    m.put(AGGS + "/1", json={"aggregate": aggs[0]})
    m.post(AGGS + "/1/action", json={"aggregate": aggs[0]})
    code, out, err = cli(
        "aggregate", "set", "agg1", "--name", "new", "--zone", "paris", "--property", "a=1"
    )
    assert code == 0, err
    assert out == ""
    assert requests_to(m, "PUT", "/os-aggregates/1")[0].json() == {
        "aggregate": {"name": "new", "availability_zone": "paris"}
    }
    assert action_bodies(m) == [{"set_metadata": {"metadata": {"a": "1"}}}]


def test_aggregate_set_no_property_keeps_zone(cli, aggs, mock_cloud):
    mock_cloud.mock.post(AGGS + "/1/action", json={"aggregate": aggs[0]})
    code, out, err = cli("aggregate", "set", "1", "--no-property", "--property", "b=2")
    assert code == 0, err
    assert action_bodies(mock_cloud.mock) == [
        {"set_metadata": {"metadata": {"ssd": None, "b": "2"}}}
    ]
    assert not requests_to(mock_cloud.mock, "PUT", "/os-aggregates")


def test_aggregate_set_nothing_sends_nothing(cli, aggs, mock_cloud):
    code, out, err = cli("aggregate", "set", "agg1")
    assert code == 0, err
    assert not action_bodies(mock_cloud.mock)


def test_aggregate_unset_sends_null(cli, aggs, mock_cloud):
    mock_cloud.mock.post(AGGS + "/1/action", json={"aggregate": aggs[0]})
    code, out, err = cli("aggregate", "unset", "agg1", "--property", "ssd", "--property", "other")
    assert code == 0, err
    assert action_bodies(mock_cloud.mock) == [
        {"set_metadata": {"metadata": {"ssd": None, "other": None}}}
    ]


def test_aggregate_unset_requires_property(cli, aggs):
    code, out, err = cli("aggregate", "unset", "agg1")
    assert code == 2


def test_aggregate_delete_reports_each_failure(cli, aggs, mock_cloud):
    m = mock_cloud.mock
    m.delete(
        AGGS + "/1",
        **nova_error(
            400, "Cannot remove host from aggregate 1. Reason: Host aggregate is not empty."
        ),
    )
    m.delete(AGGS + "/2", status_code=200, text="")
    code, out, err = cli("aggregate", "delete", "agg1", "agg2", "nosuch")
    assert code == 1
    assert (
        "Failed to delete aggregate agg1: Cannot remove host from "
        "aggregate 1. Reason: Host aggregate is not empty. Remove its "
        "hosts first: occli aggregate remove host agg1 host1 (HTTP 400)" in err
    )
    assert (
        "Failed to delete aggregate nosuch: No aggregate with a name or "
        "ID of 'nosuch' exists." in err
    )
    assert requests_to(m, "DELETE", "/os-aggregates/2")


def test_aggregate_delete_all_ok(cli, aggs, mock_cloud):
    mock_cloud.mock.delete(AGGS + "/2", status_code=200, text="")
    code, out, err = cli("aggregate", "delete", "agg2")
    assert (code, out, err) == (0, "", "")


def test_aggregate_add_and_remove_host(cli, aggs, mock_cloud):
    added = sample("aggregates-add-host-post-resp.json")
    mock_cloud.mock.post(
        AGGS + "/1/action",
        [{"json": added}, {"json": sample("aggregates-remove-host-post-resp.json")}],
    )
    code, out, err = cli("aggregate", "add", "host", "agg1", "compute", "-f", "json")
    assert code == 0, err
    assert json.loads(out)["hosts"] == ["compute"]
    code, out, err = cli("aggregate", "remove", "host", "agg1", "compute", "-f", "json")
    assert code == 0, err
    assert json.loads(out)["hosts"] == []
    assert action_bodies(mock_cloud.mock) == [
        sample("aggregate-add-host-post-req.json"),
        sample("aggregate-remove-host-post-req.json"),
    ]


@pytest.mark.parametrize("verb", ["add", "remove"])
def test_aggregate_hosts_several_at_once(cli, aggs, mock_cloud, verb):
    """Each host is one action (any order); failures in argument order;
    then the aggregate as it is after all of them; exit 1."""

    def answer(request, context):
        host = request.json()[verb + "_host"]["host"]
        if host in ("bad1", "bad2"):
            context.status_code = 404
            return {"itemNotFound": {"code": 404, "message": "No host %s." % host}}
        return {"aggregate": aggs[0]}

    mock_cloud.mock.post(AGGS + "/1/action", json=answer)
    hosts = ["h%d" % i for i in range(6)]
    code, out, err = cli(
        "aggregate",
        verb,
        "host",
        "agg1",
        "bad2",
        *hosts,
        "bad1",
        "--concurrency",
        "3",
        "-f",
        "json",
    )
    assert code == 1
    assert json.loads(out)["name"] == "agg1"
    word = "to" if verb == "add" else "from"
    assert err.splitlines() == [
        "Failed to %s host bad2 %s aggregate agg1: No host bad2. (HTTP 404)" % (verb, word),
        "Failed to %s host bad1 %s aggregate agg1: No host bad1. (HTTP 404)" % (verb, word),
    ]
    sent = sorted(body[verb + "_host"]["host"] for body in action_bodies(mock_cloud.mock))
    assert sent == sorted(["bad1", "bad2"] + hosts)
    # the aggregate is read again after the actions, for what it is now
    assert (
        requests_to(mock_cloud.mock, "GET", "/os-aggregates/1")[-1]
        is mock_cloud.mock.request_history[-1]
    )


@pytest.mark.parametrize(
    "argv, status, message",
    [
        (("add", "host", "agg1", "nohost"), 404, "Compute host nohost could not be found."),
        (("add", "host", "agg1", "host1"), 409, "Aggregate 1 already has host host1."),
        (
            ("add", "host", "agg1", "host2"),
            409,
            "Cannot add host to aggregate 1. Reason: One or more hosts already in "
            "availability zone(s) ['paris'].",
        ),
        (("remove", "host", "agg1", "host9"), 404, "Cannot remove host host9 in aggregate 1"),
        (("remove", "host", "agg1", "host1"), 409, "Cannot remove host host1 in aggregate 1"),
        (
            ("set", "agg1", "--property", "availability_zone="),
            400,
            "Cannot update metadata of aggregate 1. Reason: Aggregate agg1 does not "
            "support empty named availability zone.",
        ),
        (
            ("unset", "agg1", "--property", "k"),
            403,
            "Policy doesn't allow os_compute_api:os-aggregates:set_metadata to be performed.",
        ),
    ],
)
def test_action_errors_exit_1_with_nova_message(cli, aggs, mock_cloud, argv, status, message):
    mock_cloud.mock.post(AGGS + "/1/action", **nova_error(status, message))
    code, out, err = cli("aggregate", *argv)
    assert code == 1
    hint = exceptions.POLICY_HINT if status == 403 else ""
    assert err.strip() == "%s%s (HTTP %d)" % (message, hint, status)


@pytest.mark.parametrize(
    "argv, method, url, status, message",
    [
        (("create", "dup"), "post", AGGS, 409, "Aggregate dup already exists."),
        (
            ("create", "x", "--zone", "a:b"),
            "post",
            AGGS,
            400,
            "An invalid 'name' value was provided. The name must be: printable "
            "characters except :.Can not start or end with whitespace.",
        ),
        (
            ("set", "agg1", "--name", "agg2"),
            "put",
            AGGS + "/1",
            409,
            "Aggregate agg2 already exists.",
        ),
        (
            ("set", "agg1", "--zone", "other"),
            "put",
            AGGS + "/1",
            400,
            "Cannot update aggregate 1. Reason: One or more hosts contain instances in this zone.",
        ),
        (
            ("list",),
            "get",
            AGGS,
            403,
            "Policy doesn't allow os_compute_api:os-aggregates:index to be performed.",
        ),
    ],
)
def test_crud_errors_exit_1_with_nova_message(
    cli, aggs, mock_cloud, argv, method, url, status, message
):
    getattr(mock_cloud.mock, method)(url, **nova_error(status, message))
    code, out, err = cli("aggregate", *argv)
    assert code == 1
    hint = exceptions.POLICY_HINT if status == 403 else ""
    assert err.strip() == "%s%s (HTTP %d)" % (message, hint, status)


def test_aggregate_show_unknown(cli, aggs):
    code, out, err = cli("aggregate", "show", "nosuch")
    assert code == 1
    assert err.strip() == ("No aggregate with a name or ID of 'nosuch' exists. (HTTP 404)")


def test_aggregate_cache_image_resolves_image_names(cli, aggs, mock_cloud):
    m = mock_cloud.mock
    image = {"id": IMAGE_ID, "name": "cirros"}
    m.get(IMAGE + "/v2/images/cirros", status_code=404, text="Not Found")
    m.get(IMAGE + "/v2/images?name=cirros", json={"images": [image]})
    m.get(IMAGE + "/v2/images/" + IMAGE_ID, json=image)
    m.post(AGGS + "/1/images", status_code=202, text="")
    code, out, err = cli("aggregate", "cache", "image", "agg1", "cirros", IMAGE_ID)
    assert code == 0, err
    assert requests_to(m, "POST", "/os-aggregates/1/images")[0].json() == {
        "cache": [{"id": IMAGE_ID}, {"id": IMAGE_ID}]
    }


def test_aggregate_cache_image_below_281(cli, aggs, mock_cloud):
    code, out, err = cli(
        "--os-compute-api-version", "2.80", "aggregate", "cache", "image", "agg1", "cirros"
    )
    assert code == 1
    assert err.strip() == (
        "Caching images on an aggregate requires compute API version 2.81 or "
        "later (in use: 2.80); change --os-compute-api-version."
    )
    assert not requests_to(mock_cloud.mock, "GET", "/os-aggregates")


def test_aggregate_cache_image_errors(cli, aggs, mock_cloud):
    mock_cloud.mock.get(IMAGE + "/v2/images/" + IMAGE_ID, json={"id": IMAGE_ID, "name": "cirros"})
    mock_cloud.mock.post(AGGS + "/1/images", **nova_error(400, "Duplicate images in request"))
    code, out, err = cli("aggregate", "cache", "image", "1", IMAGE_ID, IMAGE_ID)
    assert code == 1
    assert err.strip() == "Duplicate images in request (HTTP 400)"


ZONES = {
    "availabilityZoneInfo": [
        {
            "zoneName": "internal",
            "zoneState": {"available": True},
            "hosts": {
                "controller": {
                    "nova-conductor": {
                        "available": True,
                        "active": True,
                        "updated_at": "2026-01-01T00:00:00.000000",
                    },
                    "nova-scheduler": {
                        "available": True,
                        "active": True,
                        "updated_at": "2026-01-01T00:00:00.000000",
                    },
                }
            },
        },
        {
            "zoneName": "london",
            "zoneState": {"available": True},
            "hosts": {
                "host1": {
                    "nova-compute": {
                        "available": True,
                        "active": False,
                        "updated_at": "2026-01-01T00:00:00.000000",
                    }
                }
            },
        },
        {"zoneName": "nova", "zoneState": {"available": False}, "hosts": None},
    ]
}


def test_availability_zone_list(cli, mock_cloud):
    short = {
        "availabilityZoneInfo": [dict(z, hosts=None) for z in ZONES["availabilityZoneInfo"][1:]]
    }
    mock_cloud.mock.get(COMPUTE + "/os-availability-zone", json=short)
    code, out, err = cli("availability", "zone", "list", "--compute", "-f", "json")
    assert code == 0, err
    assert json.loads(out) == [
        {"Zone Name": "london", "Zone Status": "available"},
        {"Zone Name": "nova", "Zone Status": "not available"},
    ]


def test_availability_zone_list_long(cli, mock_cloud):
    mock_cloud.mock.get(COMPUTE + "/os-availability-zone/detail", json=ZONES)
    code, out, err = cli("availability", "zone", "list", "--compute", "--long", "-f", "json")
    assert code == 0, err
    rows = json.loads(out)
    # OSC's Zone Resource column: Neutron's zones fill it, Nova's leave it empty
    assert {row.pop("Zone Resource") for row in rows} == {""}
    assert rows[0] == {
        "Zone Name": "internal",
        "Zone Status": "available",
        "Host Name": "controller",
        "Service Name": "nova-conductor",
        "Service Status": "enabled up",
    }
    assert rows[2] == {
        "Zone Name": "london",
        "Zone Status": "available",
        "Host Name": "host1",
        "Service Name": "nova-compute",
        "Service Status": "disabled up",
    }
    assert rows[3] == {
        "Zone Name": "nova",
        "Zone Status": "not available",
        "Host Name": "",
        "Service Name": "",
        "Service Status": "",
    }


def test_availability_zone_list_long_forbidden(cli, mock_cloud):
    mock_cloud.mock.get(
        COMPUTE + "/os-availability-zone/detail",
        **nova_error(
            403, "Policy doesn't allow os_compute_api:os-availability-zone:detail to be performed."
        ),
    )
    code, out, err = cli("availability", "zone", "list", "--long")
    assert code == 1
    assert "os-availability-zone:detail" in err
