"""``OS::Heat::WaitCondition`` (Heat's ``openstack/heat/wait_condition.py``
and the failures of ``resources/wait_condition.py``): waits for ``count``
success signals on its handle within ``timeout`` seconds."""

import json
from collections.abc import Mapping
from typing import Any

from occli.localcloud import common
from occli.localcloud.orchestration.engine import attributes
from occli.localcloud.orchestration.engine import constraints
from occli.localcloud.orchestration.engine import exception
from occli.localcloud.orchestration.engine import properties
from occli.localcloud.orchestration.engine import resource
from occli.localcloud.orchestration.engine import support
from occli.localcloud.orchestration.engine.resources.openstack.heat import software_deployment
from occli.localcloud.orchestration.engine.resources.openstack.heat import (
    wait_condition_handle as wch,
)


class WaitConditionFailure(exception.Error):
    """A FAILURE signal arrived: the failure reasons, ``;``-joined."""

    def __init__(self, handle: wch.HeatWaitConditionHandle) -> None:
        super().__init__(";".join(handle.get_status_reason(wch.STATUS_FAILURE)))


class WaitConditionTimeout(exception.Error):
    """Too few success signals in time: ``<n> of <count> received[ - <reasons>]``."""

    def __init__(self, count: int, handle: wch.HeatWaitConditionHandle) -> None:
        reasons = handle.get_status_reason(wch.STATUS_SUCCESS)
        message = "%d of %d received" % (len(reasons), count)
        if reasons:
            message += " - %s" % ";".join(reasons)
        super().__init__(message)


class HeatWaitCondition(resource.Resource):
    """CREATE_IN_PROGRESS until its handle has ``count`` SUCCESS signals;
    fails on a FAILURE signal or after ``timeout``."""

    support_status = support.SupportStatus(version="2014.2")

    HANDLE, TIMEOUT, COUNT = "handle", "timeout", "count"
    DATA = "data"

    properties_schema = {
        HANDLE: properties.Schema(
            properties.Schema.STRING,
            "A reference to the wait condition handle used to signal this wait condition.",
            required=True,
        ),
        TIMEOUT: properties.Schema(
            properties.Schema.NUMBER,
            "The number of seconds to wait for the correct number of signals to arrive.",
            required=True,
            constraints=[constraints.Range(1, 43200)],
        ),
        COUNT: properties.Schema(
            properties.Schema.INTEGER,
            "The number of success signals that must be received before the "
            "stack creation process continues.",
            constraints=[constraints.Range(min=1)],
            default=1,
            update_allowed=True,
        ),
    }
    attributes_schema = {
        DATA: attributes.Schema(
            "JSON string containing data associated with wait condition signals "
            "sent to the handle.",
            cache_mode=attributes.Schema.CACHE_NONE,
            type=attributes.Schema.STRING,
        ),
    }

    def _handle(self) -> resource.Resource | None:
        return software_deployment.referenced_resource(self, self.HANDLE)

    def _valid_handle(self) -> wch.HeatWaitConditionHandle:
        handle = self._handle()
        if isinstance(handle, wch.HeatWaitConditionHandle):
            return handle
        name = handle.name if handle is not None else self.properties[self.HANDLE]
        raise ValueError("%s is not a valid wait condition handle." % name)

    def _start(self) -> list[float]:
        return [common.utcnow().timestamp(), float(self.properties[self.TIMEOUT])]

    def _wait(self, data: Any) -> bool:
        started_at, timeout = data
        handle = self._valid_handle()
        if common.utcnow().timestamp() - started_at > timeout:
            raise WaitConditionTimeout(self.properties[self.COUNT], handle)
        statuses = handle.get_status()
        if any(s != wch.STATUS_SUCCESS for s in statuses):
            raise WaitConditionFailure(handle)
        return len(statuses) >= self.properties[self.COUNT]

    def handle_create(self) -> list[float]:
        self._valid_handle()
        return self._start()

    def check_create_complete(self, handler_data: Any) -> bool:
        return self._wait(handler_data)

    def handle_update(
        self, json_snippet: Mapping[str, Any], tmpl_diff: Mapping[str, Any], prop_diff: dict
    ) -> list[float]:
        """Wait again, from now, with the new properties."""
        if set(prop_diff) - self.update_allowed():
            raise resource.UpdateReplace(self.name)
        self._properties = self.make_properties(json_snippet.get("properties") or {})
        return self._start()

    def check_update_complete(self, handler_data: Any) -> bool:
        return self._wait(handler_data)

    def handle_delete(self) -> None:
        handle = self._handle()
        if handle is not None:
            handle.metadata_set({})

    def _resolve_attribute(self, name: str) -> Any:
        handle = self._handle()
        if handle is None:
            return ""
        if name == self.DATA:
            meta = handle.metadata_get()
            return json.dumps({k: v[wch.DATA] for k, v in meta.items()})
        return None


def resource_mapping() -> dict[str, type[resource.Resource]]:
    return {"OS::Heat::WaitCondition": HeatWaitCondition}
