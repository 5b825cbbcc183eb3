"""``OS::Heat::WaitConditionHandle`` (Heat's
``openstack/heat/wait_condition_handle.py`` and the base handle of
``resources/wait_condition.py``): where a server (or anyone with the
handle's token) signals a wait condition.

``TOKEN_SIGNAL`` (the default): the handle's ``token`` is a random secret
kept redacted in its data, good for signalling this handle only: the
signal route (``POST …/resources/{name}/signal``) takes a request whose
``X-Auth-Token`` is that token in place of a Keystone token
(:func:`token_matches`), as Heat's stack-domain user may only signal its
own resources. ``HEAT_SIGNAL`` is the same route with Keystone
credentials (:mod:`.software_deployment`'s, with no secret),
``TEMP_URL_SIGNAL`` a Swift object polled while the condition waits,
``NO_SIGNAL`` one success per poll; ``CFN_SIGNAL`` and ``ZAQAR_SIGNAL`` fail
as Heat does without heat-api-cfn or Zaqar.
"""

import hmac
import json
import secrets
from collections.abc import Mapping
from typing import Any
from urllib.parse import quote

from occli.localcloud.orchestration.engine import attributes
from occli.localcloud.orchestration.engine import constraints
from occli.localcloud.orchestration.engine import exception
from occli.localcloud.orchestration.engine import properties
from occli.localcloud.orchestration.engine import resource
from occli.localcloud.orchestration.engine import support
from occli.localcloud.orchestration.engine.clients import ClientError
from occli.localcloud.orchestration.engine.resources.openstack.heat import (
    software_deployment as sd,
)
from occli.localcloud.orchestration.engine.resources.openstack.swift import temp_url

SIGNAL_TRANSPORTS = (
    CFN_SIGNAL,
    TEMP_URL_SIGNAL,
    HEAT_SIGNAL,
    NO_SIGNAL,
    ZAQAR_SIGNAL,
    TOKEN_SIGNAL,
) = ("CFN_SIGNAL", "TEMP_URL_SIGNAL", "HEAT_SIGNAL", "NO_SIGNAL", "ZAQAR_SIGNAL", "TOKEN_SIGNAL")
STATUS_FAILURE, STATUS_SUCCESS = "FAILURE", "SUCCESS"
METADATA_KEYS = (DATA, REASON, STATUS, UNIQUE_ID) = ("data", "reason", "status", "id")


def token_matches(resource_data: Mapping[str, Any], token: str | None) -> bool:
    """Whether ``token`` is the TOKEN_SIGNAL token of the handle whose data
    this is (a constant-time compare)."""
    stored = resource_data.get("token")
    return bool(stored and token) and hmac.compare_digest(str(stored), str(token))


class HeatWaitConditionHandle(resource.Resource):
    """Takes signals (``status`` SUCCESS or FAILURE, ``reason``, ``data``,
    ``id``) into its metadata, one entry per ``id``."""

    support_status = support.SupportStatus(version="2014.2")

    SIGNAL_TRANSPORT = "signal_transport"
    TOKEN, ENDPOINT, CURL_CLI, SIGNAL = "token", "endpoint", "curl_cli", "signal"
    signal_supported = True

    properties_schema = {
        SIGNAL_TRANSPORT: properties.Schema(
            properties.Schema.STRING,
            "How the client will signal the wait condition. CFN_SIGNAL will "
            "allow an HTTP POST to a CFN keypair signed URL. TEMP_URL_SIGNAL "
            "will create a Swift TempURL to be signalled via HTTP PUT. "
            "HEAT_SIGNAL will allow calls to the Heat API resource-signal using "
            "the provided keystone credentials. ZAQAR_SIGNAL will create a "
            "dedicated zaqar queue to be signalled using the provided keystone "
            "credentials. TOKEN_SIGNAL will allow and HTTP POST to a Heat API "
            "endpoint with the provided keystone token. NO_SIGNAL will result in "
            "the resource going to a signalled state without waiting for any "
            "signal.",
            default=TOKEN_SIGNAL,
            constraints=[constraints.AllowedValues(SIGNAL_TRANSPORTS)],
        ),
    }
    attributes_schema = {
        TOKEN: attributes.Schema(
            "Token for stack-user which can be used for signalling handle when "
            "signal_transport is set to TOKEN_SIGNAL. None for all other "
            "signal transports.",
            cache_mode=attributes.Schema.CACHE_NONE,
            type=attributes.Schema.STRING,
        ),
        ENDPOINT: attributes.Schema(
            "Endpoint/url which can be used for signalling handle when "
            "signal_transport is set to TOKEN_SIGNAL. None for all other "
            "signal transports.",
            cache_mode=attributes.Schema.CACHE_NONE,
            type=attributes.Schema.STRING,
        ),
        CURL_CLI: attributes.Schema(
            "Convenience attribute, provides curl CLI command prefix, which can "
            "be used for signalling handle completion or failure when "
            "signal_transport is set to TOKEN_SIGNAL. You can signal success by "
            'adding --data-binary \'{"status": "SUCCESS"}\' , or signal '
            'failure by adding --data-binary \'{"status": "FAILURE"}\'. This '
            "attribute is set to None for all other signal transports.",
            cache_mode=attributes.Schema.CACHE_NONE,
            type=attributes.Schema.STRING,
        ),
        SIGNAL: attributes.Schema(
            "JSON serialized map that includes the endpoint, token and/or other "
            "attributes the client must use for signalling this handle. The "
            "contents of this map depend on the type of signal selected in the "
            "signal_transport property.",
            cache_mode=attributes.Schema.CACHE_NONE,
            type=attributes.Schema.STRING,
        ),
    }

    def _transport(self) -> str:
        return str(self.properties[self.SIGNAL_TRANSPORT])

    def signal_url(self) -> str:
        """This resource's ``…/resources/{name}/signal`` URL."""
        return "%s%s/stacks/%s/%s/resources/%s/signal" % (
            temp_url.root_url(self.stack.config),
            self.client().endpoint("orchestration"),
            quote(self.stack.name, safe=""),
            quote(self.stack.id, safe=""),
            quote(self.name, safe=""),
        )

    def handle_create(self) -> None:
        transport = self._transport()
        if transport in (CFN_SIGNAL, ZAQAR_SIGNAL):
            raise exception.EndpointNotFound()
        if transport == TOKEN_SIGNAL:
            self.data_set("token", secrets.token_urlsafe(32), redact=True)
            self.data_set("endpoint", self.signal_url())
        elif transport == TEMP_URL_SIGNAL:
            sd.swift_signal_url(self)
        self.resource_id_set(self.physical_resource_name())

    def handle_delete(self) -> None:
        sd.delete_swift_signal(self)

    def _signal_details(self) -> dict[str, Any] | None:
        transport = self._transport()
        if transport == HEAT_SIGNAL:
            signal = sd.heat_signal_credentials(self)
            signal["alarm_url"] = self.signal_url()
            return signal
        if transport == TEMP_URL_SIGNAL:
            return {"alarm_url": self.data().get("swift_signal_url")}
        if transport == NO_SIGNAL:
            return {}
        return None

    def _resolve_attribute(self, name: str) -> Any:
        if not self.resource_id:
            return None
        if name == self.SIGNAL:
            return json.dumps(self._signal_details())
        if name in (self.TOKEN, self.ENDPOINT):
            return self.data().get(name)
        if name == self.CURL_CLI:
            data = self.data()
            if data.get("endpoint") is None or data.get("token") is None:
                return None
            return (
                "curl -i -X POST -H 'X-Auth-Token: %s' -H 'Content-Type: "
                "application/json' -H 'Accept: application/json' %s"
                % (data["token"], data["endpoint"])
            )
        return None

    # -- signals ---------------------------------------------------------------

    @staticmethod
    def normalise_signal_data(signal_data: Any, latest: Mapping[str, Any]) -> dict[str, Any]:
        """Missing values filled in: reason ``Signal <n> received``, data
        None, id ``n``, status SUCCESS."""
        number = len(latest) + 1
        metadata = dict(signal_data) if isinstance(signal_data, Mapping) else {}
        metadata.setdefault(REASON, "Signal %s received" % number)
        metadata.setdefault(DATA, None)
        metadata.setdefault(UNIQUE_ID, number)
        metadata.setdefault(STATUS, STATUS_SUCCESS)
        return metadata

    def signal_token_matches(self, token: str) -> bool:
        """The handle's own TOKEN_SIGNAL token signals it without Keystone
        (its ``curl_cli``), and nothing else."""
        return self._transport() == TOKEN_SIGNAL and token_matches(self.data(), token)

    def handle_signal(self, details: Any = None) -> str:
        """Store the signal in the metadata (one write, merged with what is
        stored now); the event reason ``status:<s> reason:<r>``."""
        if details is not None and not isinstance(details, Mapping):
            raise ValueError("Metadata format invalid")
        written: list[dict[str, Any]] = []

        def merge(latest: dict[str, Any]) -> dict[str, Any]:
            entry = self.normalise_signal_data(details, latest)
            if set(entry) != set(METADATA_KEYS) or entry[STATUS] not in (
                STATUS_FAILURE,
                STATUS_SUCCESS,
            ):
                raise ValueError("Metadata format invalid")
            written.append(entry)
            entry = dict(entry)
            unique_id = str(entry.pop(UNIQUE_ID))
            return {**latest, unique_id: entry}

        self.metadata_set({}, merge=merge)
        return "status:%s reason:%s" % (written[-1][STATUS], written[-1][REASON])

    def _service_signal(self) -> None:
        """Take the signals that are polled for: the Swift object's (then
        deleted, as Heat deletes consumed ones), or NO_SIGNAL's one."""
        transport = self._transport()
        if transport == NO_SIGNAL:
            self.handle_signal({})
            return
        obj = self.data().get("swift_signal_object_name")
        if transport != TEMP_URL_SIGNAL or not obj:
            return
        path = "/%s/%s" % (quote(self.stack.id), quote(obj))
        try:
            answer = self.client().get("object-store", path)
        except ClientError as exc:
            if exc.not_found:
                return
            raise
        if not answer.raw:
            return
        try:
            details = json.loads(answer.raw)
        except ValueError:
            raise exception.Error(
                "Failed to parse JSON data: %s" % answer.raw.decode("utf-8", "replace")
            ) from None
        self.handle_signal(details)
        self.client().delete_ignoring_not_found("object-store", path)

    def get_status(self) -> list[str]:
        """The status of every signal received (polled ones taken first)."""
        self._service_signal()
        return [v[STATUS] for v in self.metadata_get().values()]

    def get_status_reason(self, status: str) -> list[str]:
        return [v[REASON] for v in self.metadata_get().values() if v[STATUS] == status]


def resource_mapping() -> dict[str, type[resource.Resource]]:
    return {"OS::Heat::WaitConditionHandle": HeatWaitConditionHandle}
