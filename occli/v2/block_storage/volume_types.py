"""Cinder v3 volume types (``client.volume_types``): list, show, the
default type, and the admin's create, update, delete, extra specs and
project access of private types (cinderclient's ``VolumeTypeManager`` and
``VolumeTypeAccessManager``, openstacksdk's ``block_storage`` type calls);
QoS specs and their type associations (``client.volume_qos``).

A private type (``is_public`` false) is seen only by admins and by the
projects given access; Cinder refuses a volume of it to other projects as
an unknown type.
"""

import builtins
import re
from collections.abc import Iterable
from collections.abc import Iterator
from collections.abc import Mapping
from typing import Any

from occli import base
from occli import exceptions
from occli import strutils
from occli.v2.block_storage import base as cinder

#: the extra spec keys Cinder's ``types_extra_specs`` schema takes
EXTRA_SPEC_KEY = re.compile(r"^[a-zA-Z0-9-_:.]{1,255}$")
#: the longest name, description, extra spec value Cinder stores
MAX_LENGTH = 255
#: who applies QoS specs (Cinder's ``QoSConsumerValues``)
QOS_CONSUMERS = ("front-end", "back-end", "both")


class VolumeType(base.Resource):
    """A volume type (``name``, ``is_public``, ``extra_specs``)."""


class VolumeTypeManager(cinder.CinderManager):
    resource_class = VolumeType
    collection = "types"
    member = "volume_type"
    noun = "volume type"

    def list(  # type: ignore[override]
        self, is_public: bool | None = True, limit: int | None = None
    ) -> base.ListWithMeta:
        """The types the caller sees: ``is_public`` True — public ones and
        those its project has access to (Cinder's default), False — private
        ones only, None — all (the last two for admins; Cinder ignores
        them for others). :meth:`iter` yields them lazily."""
        return self._list_all(
            self._url("types"),
            "volume_types",
            self._params(is_public),
            limit=limit,
            links_key="volume_type_links",
        )

    def iter(  # type: ignore[override]
        self, is_public: bool | None = True, limit: int | None = None
    ) -> Iterator[base.Resource]:
        """Like :meth:`list`, lazily."""
        return self._list(
            self._url("types"),
            "volume_types",
            self._params(is_public),
            limit=limit,
            links_key="volume_type_links",
        )

    @staticmethod
    def _params(is_public: bool | None) -> dict[str, str]:
        if is_public is None:
            return {"is_public": "None"}
        return {} if is_public else {"is_public": "false"}

    def default(self) -> base.Resource:
        """The type a volume gets when it names none (``/types/default``)."""
        return self._get(self._url("types", "default"), "volume_type")

    def find_resource(  # type: ignore[override]
        self, name_or_id: base.Resource | str
    ) -> base.Resource:
        """By id (a UUID), else by exact name among every type the caller
        sees (private ones included)."""
        if isinstance(name_or_id, base.Resource):
            return name_or_id
        value = str(name_or_id)
        if strutils.is_uuid(value):
            try:
                return self.get(value)
            except exceptions.NotFound:
                pass
        matches = [t for t in self.iter(is_public=None) if getattr(t, "name", None) == value]
        return self._one_named(matches, value)

    def create(
        self,
        name: str,
        description: str | None = None,
        is_public: bool = True,
        extra_specs: Mapping[str, str] | None = None,
    ) -> base.Resource:
        """Create a type (admin); a private one is seen only by admins and
        the projects :meth:`add_project_access` names."""
        self.check_create(name, description, extra_specs)
        body: dict[str, Any] = {"name": name, "os-volume-type-access:is_public": bool(is_public)}
        if description is not None:
            body["description"] = description
        if extra_specs:
            body["extra_specs"] = dict(extra_specs)
        return self._create(self._url("types"), {"volume_type": body}, "volume_type")

    def check_create(
        self,
        name: str,
        description: str | None = None,
        extra_specs: Mapping[str, str] | None = None,
    ) -> None:
        """ValidationError for what Cinder's schema refuses: an empty or
        too long name or description, a bad extra spec."""
        if not name or not name.strip() or len(name) > MAX_LENGTH:
            raise exceptions.ValidationError(
                "{name} must be 1 to %d characters, not only spaces." % MAX_LENGTH,
                params=("name",),
            )
        if description is not None and len(description) > MAX_LENGTH:
            raise exceptions.ValidationError(
                "{description} must be at most %d characters." % MAX_LENGTH,
                params=("description",),
            )
        self.check_extra_specs(extra_specs or {})

    def check_extra_specs(self, specs: Mapping[str, str]) -> None:
        """ValidationError for a key Cinder refuses (letters, digits and
        ``-_:.``, 1 to 255) or a value over 255 characters."""
        for key, value in specs.items():
            if not EXTRA_SPEC_KEY.match(key):
                raise exceptions.ValidationError(
                    "Property key %r: letters, digits and -_:. only, 1 to %d characters."
                    % (key, MAX_LENGTH),
                    params=("extra_specs",),
                )
            if len(str(value)) > MAX_LENGTH:
                raise exceptions.ValidationError(
                    "Property %r: the value is longer than %d characters." % (key, MAX_LENGTH),
                    params=("extra_specs",),
                )

    def update(
        self,
        volume_type: base.Resource | str,
        name: str | None = None,
        description: str | None = None,
        is_public: bool | None = None,
    ) -> base.Resource:
        """Rename, describe or publish/unpublish a type (admin)."""
        body: dict[str, Any] = {
            k: v
            for k, v in (("name", name), ("description", description), ("is_public", is_public))
            if v is not None
        }
        if not body:
            raise exceptions.ValidationError(
                "Give {name}, {description} or {is_public}.",
                params=("name", "description", "is_public"),
            )
        if name is not None:
            self.check_create(name, description)
        return self._update(
            self._url("types", base.getid(volume_type)), {"volume_type": body}, "volume_type"
        )

    def delete(self, volume_type: base.Resource | str) -> base.Result:
        """Delete a type (admin); Cinder refuses the default type and one
        that volumes have (400)."""
        return self._delete(self._url("types", base.getid(volume_type)))

    def get_extra_specs(self, volume_type: base.Resource | str) -> base.DictWithMeta:
        """The type's extra specs (a non-admin sees the user-visible ones)."""
        response = self._request("GET", self._url("types", base.getid(volume_type), "extra_specs"))
        return base.DictWithMeta(
            self._value(response, self._body(response), "extra_specs", dict, {}),
            base._request_ids(response),
        )

    def set_extra_specs(
        self, volume_type: base.Resource | str, specs: Mapping[str, str]
    ) -> base.DictWithMeta:
        """Merge ``specs`` into the type's (admin; refused while volumes
        have the type)."""
        self.check_extra_specs(specs)
        response = self._request(
            "POST",
            self._url("types", base.getid(volume_type), "extra_specs"),
            body={"extra_specs": dict(specs)},
        )
        return base.DictWithMeta(
            self._value(response, self._body(response), "extra_specs", dict, {}),
            base._request_ids(response),
        )

    def unset_extra_specs(self, volume_type: base.Resource | str, keys: Iterable[str]) -> None:
        """Remove extra specs ``keys`` (a request per key)."""
        for key in keys:
            self._delete(self._url("types", base.getid(volume_type), "extra_specs", key))

    def list_access(self, volume_type: base.Resource | str) -> builtins.list[dict[str, str]]:
        """``[{"volume_type_id", "project_id"}]`` of a private type (admin;
        404 for a public one)."""
        response = self._request(
            "GET", self._url("types", base.getid(volume_type), "os-volume-type-access")
        )
        return list(self._value(response, self._body(response), "volume_type_access", list, []))

    def add_project_access(self, volume_type: base.Resource | str, project: str) -> base.Result:
        """Let ``project`` (an id) see and use a private type (admin)."""
        return self._action(
            self._url("types", base.getid(volume_type), "action"),
            "addProjectAccess",
            {"project": project},
        )

    def remove_project_access(self, volume_type: base.Resource | str, project: str) -> base.Result:
        """Take a project's access to a private type away (admin)."""
        return self._action(
            self._url("types", base.getid(volume_type), "action"),
            "removeProjectAccess",
            {"project": project},
        )


class QoSSpecs(base.Resource):
    """QoS specs (``name``, ``consumer``, ``specs``)."""


class QoSSpecsManager(cinder.CinderManager):
    """QoS specs and their volume type associations (admin; cinderclient's
    ``QoSSpecsManager``, ``client.volume_qos``)."""

    resource_class = QoSSpecs
    collection = "qos-specs"
    member = "qos_specs"
    noun = "QoS specification"

    def list(self, limit: int | None = None) -> base.ListWithMeta:  # type: ignore[override]
        """Every QoS specs, newest first."""
        return self._list_all(self._url("qos-specs"), "qos_specs", limit=limit)

    def iter(self, limit: int | None = None) -> Iterator[base.Resource]:  # type: ignore[override]
        """Like :meth:`list`, lazily."""
        return self._list(self._url("qos-specs"), "qos_specs", limit=limit)

    def find_resource(  # type: ignore[override]
        self, name_or_id: base.Resource | str
    ) -> base.Resource:
        """By id (a UUID), else by exact name."""
        if isinstance(name_or_id, base.Resource):
            return name_or_id
        value = str(name_or_id)
        if strutils.is_uuid(value):
            try:
                return self.get(value)
            except exceptions.NotFound:
                pass
        return self._one_named([q for q in self.iter() if q.name == value], value)

    def create(
        self, name: str, specs: Mapping[str, str] | None = None, consumer: str | None = None
    ) -> base.Resource:
        """New QoS specs; ``consumer`` one of :data:`QOS_CONSUMERS`
        (Cinder's default ``back-end``)."""
        self.check_create(name, specs, consumer)
        body: dict[str, Any] = {"name": name, **dict(specs or {})}
        if consumer is not None:
            body["consumer"] = consumer
        return self._create(self._url("qos-specs"), {"qos_specs": body}, "qos_specs")

    def check_create(
        self,
        name: str,
        specs: Mapping[str, str] | None = None,
        consumer: str | None = None,
    ) -> None:
        """ValidationError for an empty or too long name, a consumer Cinder
        does not take, a key or value over 255 characters."""
        if not name or not name.strip() or len(name.strip()) > MAX_LENGTH:
            raise exceptions.ValidationError(
                "{name} must be 1 to %d characters, not only spaces." % MAX_LENGTH,
                params=("name",),
            )
        if consumer is not None and consumer not in QOS_CONSUMERS:
            raise exceptions.ValidationError(
                "{consumer} must be one of %s, not %r." % (", ".join(QOS_CONSUMERS), consumer),
                params=("consumer",),
            )
        for key, value in (specs or {}).items():
            if not key or len(key) > MAX_LENGTH or len(str(value)) > MAX_LENGTH:
                raise exceptions.ValidationError(
                    "Property %r: key and value must be at most %d characters."
                    % (key, MAX_LENGTH),
                    params=("specs",),
                )

    def set_keys(self, qos_specs: base.Resource | str, specs: Mapping[str, str]) -> base.Result:
        """Merge ``specs`` (``consumer`` sets the consumer)."""
        return self._result(
            self._request(
                "PUT",
                self._url("qos-specs", base.getid(qos_specs)),
                body={"qos_specs": dict(specs)},
            )
        )

    def unset_keys(self, qos_specs: base.Resource | str, keys: Iterable[str]) -> base.Result:
        """Remove ``keys`` (one request)."""
        return self._result(
            self._request(
                "PUT",
                self._url("qos-specs", base.getid(qos_specs), "delete_keys"),
                body={"keys": list(keys)},
            )
        )

    def delete(self, qos_specs: base.Resource | str, force: bool = False) -> base.Result:
        """Delete QoS specs; ``force`` disassociates them from their types
        first (else Cinder refuses ones in use)."""
        return self._delete(
            self._url("qos-specs", base.getid(qos_specs)),
            params={"force": "True" if force else "False"},
        )

    def get_associations(self, qos_specs: base.Resource | str) -> builtins.list[dict[str, str]]:
        """``[{"association_type", "name", "id"}]``: the types using them."""
        response = self._request(
            "GET", self._url("qos-specs", base.getid(qos_specs), "associations")
        )
        return list(self._value(response, self._body(response), "qos_associations", list, []))

    def associate(
        self, qos_specs: base.Resource | str, volume_type: base.Resource | str
    ) -> base.Result:
        """Give ``volume_type`` these QoS specs (a type has at most one)."""
        return self._result(
            self._request(
                "GET",
                self._url("qos-specs", base.getid(qos_specs), "associate"),
                params={"vol_type_id": base.getid(volume_type)},
            )
        )

    def disassociate(
        self, qos_specs: base.Resource | str, volume_type: base.Resource | str
    ) -> base.Result:
        """Take these QoS specs off ``volume_type``."""
        return self._result(
            self._request(
                "GET",
                self._url("qos-specs", base.getid(qos_specs), "disassociate"),
                params={"vol_type_id": base.getid(volume_type)},
            )
        )

    def disassociate_all(self, qos_specs: base.Resource | str) -> base.Result:
        """Take these QoS specs off every type."""
        return self._result(
            self._request("GET", self._url("qos-specs", base.getid(qos_specs), "disassociate_all"))
        )
