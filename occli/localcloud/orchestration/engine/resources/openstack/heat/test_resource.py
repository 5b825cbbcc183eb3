"""``OS::Heat::TestResource`` (Heat's ``openstack/heat/test_resource.py``):
stores ``value``, waits ``wait_secs`` after an action, fails on demand;
what heat-tempest-plugin's API and functional tests build stacks of.

Deviations: waiting never sleeps (each engine tick checks the time
elapsed instead of Heat's one-second naps), ``client_name``/``entity_name``
are accepted but nothing is polled, and ``attr_wait_secs`` is accepted but
an attribute is answered at once (a sleep would hold an API thread).
"""

from collections.abc import Mapping
from typing import Any

from occli.localcloud import common
from occli.localcloud.orchestration.engine import attributes
from occli.localcloud.orchestration.engine import constraints
from occli.localcloud.orchestration.engine import properties
from occli.localcloud.orchestration.engine import resource
from occli.localcloud.orchestration.engine import support


class TestResource(resource.Resource):
    """A resource that stores the string it was given (tests only)."""

    support_status = support.SupportStatus(version="5.0.0")

    __test__ = False  # not a pytest test class

    PROPERTIES = (
        VALUE,
        UPDATE_REPLACE,
        FAIL,
        CLIENT_NAME,
        ENTITY_NAME,
        WAIT_SECS,
        ACTION_WAIT_SECS,
        ATTR_WAIT_SECS,
        CONSTRAINT_PROP_SECS,
        UPDATE_REPLACE_VALUE,
    ) = (
        "value",
        "update_replace",
        "fail",
        "client_name",
        "entity_name",
        "wait_secs",
        "action_wait_secs",
        "attr_wait_secs",
        "constraint_prop_secs",
        "update_replace_value",
    )
    OUTPUT = "output"

    properties_schema = {
        CONSTRAINT_PROP_SECS: properties.Schema(
            properties.Schema.NUMBER,
            "Number value for delay during resolve constraint.",
            default=0,
            update_allowed=True,
            constraints=[constraints.CustomConstraint("test_constr")],
        ),
        ATTR_WAIT_SECS: properties.Schema(
            properties.Schema.NUMBER,
            "Number value for timeout during resolving output value.",
            default=0,
            update_allowed=True,
        ),
        VALUE: properties.Schema(
            properties.Schema.STRING,
            "The input string to be stored.",
            default="test_string",
            update_allowed=True,
        ),
        UPDATE_REPLACE_VALUE: properties.Schema(
            properties.Schema.STRING,
            "Some value that can be stored but can not be updated.",
        ),
        FAIL: properties.Schema(
            properties.Schema.BOOLEAN,
            "Value which can be set to fail the resource operation to test failure scenarios.",
            update_allowed=True,
            default=False,
        ),
        UPDATE_REPLACE: properties.Schema(
            properties.Schema.BOOLEAN,
            "Value which can be set to trigger update replace for the particular resource.",
            update_allowed=True,
            default=False,
        ),
        WAIT_SECS: properties.Schema(
            properties.Schema.NUMBER,
            "Seconds to wait after an action (-1 is infinite).",
            update_allowed=True,
            default=0,
        ),
        ACTION_WAIT_SECS: properties.Schema(
            properties.Schema.MAP,
            "Options for simulating waiting.",
            update_allowed=True,
            schema={
                "create": properties.Schema(
                    properties.Schema.NUMBER,
                    "Seconds to wait after a create. Defaults to the global wait_secs.",
                    update_allowed=True,
                ),
                "update": properties.Schema(
                    properties.Schema.NUMBER,
                    "Seconds to wait after an update. Defaults to the global wait_secs.",
                    update_allowed=True,
                ),
                "delete": properties.Schema(
                    properties.Schema.NUMBER,
                    "Seconds to wait after a delete. Defaults to the global wait_secs.",
                    update_allowed=True,
                ),
            },
        ),
        CLIENT_NAME: properties.Schema(
            properties.Schema.STRING, "Client to poll.", default="", update_allowed=True
        ),
        ENTITY_NAME: properties.Schema(
            properties.Schema.STRING, "Client entity to poll.", default="", update_allowed=True
        ),
    }
    attributes_schema = {
        OUTPUT: attributes.Schema(
            "The string that was stored. This value is also available by "
            "referencing the resource.",
            cache_mode=attributes.Schema.CACHE_NONE,
        ),
    }

    def _wait_secs(self, action: str, props: Mapping[str, Any] | None = None) -> float:
        """The wait after ``action``: ``action_wait_secs`` of it, else
        ``wait_secs``."""
        props = self.properties if props is None else props
        secs = (props[self.ACTION_WAIT_SECS] or {}).get(action.lower())
        return props[self.WAIT_SECS] if secs is None else secs

    def _cookie(self, action: str, props: Mapping[str, Any] | None = None) -> list[Any]:
        """Handler data: when the action started (epoch seconds) and how
        long it waits (JSON, so it survives in the resource's state)."""
        return [common.utcnow().timestamp(), self._wait_secs(action, props)]

    def handle_create(self) -> list[Any]:
        if not self.properties[self.FAIL]:
            self.data_set("value", self.properties[self.VALUE], redact=False)
            self.resource_id_set(self.physical_resource_name())
        return self._cookie(resource.CREATE)

    def handle_update(
        self, json_snippet: Mapping[str, Any], tmpl_diff: Mapping[str, Any], prop_diff: dict
    ) -> list[Any]:
        """In place, unless ``value`` changed with ``update_replace`` true
        (or a property that is not ``update_allowed`` changed)."""
        new = self.make_properties(json_snippet.get("properties") or {})
        if set(prop_diff) - self.update_allowed():
            raise resource.UpdateReplace(self.name)
        if self.VALUE in prop_diff and new[self.UPDATE_REPLACE]:
            raise resource.UpdateReplace(self.name)
        value = prop_diff.get(self.VALUE)
        if value:
            if not new[self.FAIL]:
                self.data_set("value", value, redact=False)
            return [
                common.utcnow().timestamp(),
                self._wait_secs(resource.UPDATE, new),
                new[self.FAIL],
            ]
        return [common.utcnow().timestamp(), 0, new[self.FAIL]]

    def handle_delete(self) -> list[Any]:
        return self._cookie(resource.DELETE)

    def check_create_complete(self, handler_data: Any) -> bool:
        return self._complete(resource.CREATE, handler_data)

    def check_update_complete(self, handler_data: Any) -> bool:
        return self._complete(resource.UPDATE, handler_data)

    def check_delete_complete(self, handler_data: Any) -> bool:
        return self._complete(resource.DELETE, handler_data)

    def handle_check(self) -> None:
        if not self.resource_id:
            raise Exception("Resource not created")

    def _complete(self, action: str, cookie: Any) -> bool:
        """Done once the wait is over (never with a negative wait); then
        ``fail`` fails any action but a delete."""
        started_at, wait_secs = cookie[0], cookie[1]
        fail = cookie[2] if len(cookie) > 2 else self.properties[self.FAIL]
        waited = common.utcnow().timestamp() - started_at
        if wait_secs >= 0 and waited > wait_secs:
            if fail and action != resource.DELETE:
                raise ValueError("Test Resource failed %s" % self.name)
            return True
        return False

    def _resolve_attribute(self, name: str) -> Any:
        if name == self.OUTPUT:
            return self.data().get("value")
        return None


def check_test_constr(value: Any, clients: Any) -> None:
    """Heat's ``test_constr`` custom constraint (``TestConstraintDelay``,
    what ``constraint_prop_secs`` names): Heat sleeps ``value`` seconds,
    then it passes; here it passes at once (validation never sleeps)."""
    return None


def resource_mapping() -> dict[str, type[resource.Resource]]:
    return {"OS::Heat::TestResource": TestResource}


def constraint_mapping() -> dict[str, Any]:
    return {"test_constr": check_test_constr}
