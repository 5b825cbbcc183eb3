"""``/v2.0/address-scopes``: list, create, show, update, delete."""

from occli.localcloud.app import Response
from occli.localcloud.network import address_scopes
from occli.localcloud.network.api import common

ADDRESS_SCOPES = common.Collection(
    "address_scope",
    "address-scopes",
    address_scopes.ATTRIBUTES,
    address_scopes.SORT_KEYS,
    address_scopes.not_found,
)


def register(service):
    service.route("GET", "/v2.0/address-scopes", list_address_scopes)
    service.route("POST", "/v2.0/address-scopes", create_address_scope)
    service.route("GET", "/v2.0/address-scopes/{address_scope_id}", show_address_scope)
    service.route("PUT", "/v2.0/address-scopes/{address_scope_id}", update_address_scope)
    service.route("DELETE", "/v2.0/address-scopes/{address_scope_id}", delete_address_scope)


def list_address_scopes(req):
    return common.list_body(req, ADDRESS_SCOPES, address_scopes.listing)


def create_address_scope(req):
    created = address_scopes.create(req.db, req.context, req.json())
    return Response(201, {"address_scope": created})


def show_address_scope(req):
    found = address_scopes.show(req.db, req.context, req.params["address_scope_id"])
    return common.show_body(req, ADDRESS_SCOPES, found)


def update_address_scope(req):
    updated = address_scopes.update(
        req.db, req.context, req.params["address_scope_id"], req.json()
    )
    return Response(200, {"address_scope": updated})


def delete_address_scope(req):
    address_scopes.delete(req.db, req.context, req.params["address_scope_id"])
    return Response(204)
