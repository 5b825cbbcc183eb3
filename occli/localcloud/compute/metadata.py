"""Server metadata: ``/servers/{id}/metadata`` and ``…/metadata/{key}``."""

import json

from occli.localcloud.app import Response
from occli.localcloud.compute import actions, base, schemas, servers

MIGRATIONS = []

WRITABLE_STATES = ("active", "paused", "suspended", "stopped")


def register(service):
    path = "/servers/{server_id}/metadata"
    service.api("GET", path, list_metadata)
    service.api("POST", path, merge_metadata)
    service.api("PUT", path, replace_metadata)
    service.api("GET", path + "/{key}", show_item)
    service.api("PUT", path + "/{key}", set_item)
    service.api("DELETE", path + "/{key}", delete_item)


def _server(req):
    return servers.load(req, req.params["server_id"])


def _writable(req, action):
    server = _server(req)
    servers.check_lock(req, server)
    actions.check_state(server, action, WRITABLE_STATES,
                        must_have_launched=False)
    return server


def _store(req, server, metadata):
    servers.check_metadata_quota(metadata)
    server["metadata"] = json.dumps(metadata)
    servers.touch(server)
    servers.save(req.db, server)
    return metadata


def list_metadata(req):
    return {"metadata": json.loads(_server(req)["metadata"])}


def merge_metadata(req):
    body = schemas.validate(schemas.metadata_set, req.json())
    server = _writable(req, "update metadata")
    metadata = json.loads(server["metadata"])
    metadata.update(body["metadata"])
    return {"metadata": _store(req, server, metadata)}


def replace_metadata(req):
    body = schemas.validate(schemas.metadata_set, req.json())
    server = _writable(req, "update metadata")
    return {"metadata": _store(req, server, body["metadata"])}


def show_item(req):
    metadata = json.loads(_server(req)["metadata"])
    key = req.params["key"]
    if key not in metadata:
        raise base.not_found("Metadata item was not found")
    return {"meta": {key: metadata[key]}}


def set_item(req):
    body = schemas.validate(schemas.metadata_item, req.json())
    key = req.params["key"]
    if key not in body["meta"]:
        raise base.bad_request("Request body and URI mismatch")
    server = _writable(req, "update metadata")
    metadata = json.loads(server["metadata"])
    metadata[key] = body["meta"][key]
    _store(req, server, metadata)
    return {"meta": {key: metadata[key]}}


def delete_item(req):
    server = _writable(req, "delete metadata")
    metadata = json.loads(server["metadata"])
    key = req.params["key"]
    if key not in metadata:
        raise base.not_found("Metadata item was not found")
    del metadata[key]
    _store(req, server, metadata)
    return Response(204)
