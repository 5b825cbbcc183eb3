"""An auth plugin that answers from a cached token until it needs more.

A command run with a warm token cache needs nothing of its auth plugin but
the token, the catalog and the project id, all in the cached token. Building
the configured keystoneauth1 plugin imports ``keystoneauth1.identity`` (every
identity plugin, web SSO and its HTTP server included) and
``keystoneauth1.loading`` (stevedore's plugin lookup): a fifth of a warm
``occli server list``. :class:`CachedTokenAuth` stands in for that plugin
with the cached :class:`keystoneauth1.access.AccessInfo` and builds the real
one (``factory()``, holding the cached token) the first time it is needed:

* to authenticate again: a 401 (``invalidate``) or a token about to expire
  (within ``MIN_TOKEN_LIFE_SECONDS``, as keystoneauth1's identity plugins);
* for anything it does not answer itself: endpoints given an
  ``endpoint_override`` or the auth interface, version data, service
  providers, cache ids, unscoped state.

What it does answer, it answers as ``BaseIdentityPlugin`` does from the same
token (the endpoint lookup below follows its ``get_endpoint_data`` step by
step). Only plugins that inherit those answers are stood in for: see
:data:`AUTH_TYPES`.
"""

import copy
import datetime
import json
import threading

from keystoneauth1 import access
from keystoneauth1 import discover
from keystoneauth1 import exceptions
from keystoneauth1 import plugin

#: Auth types whose plugins take their headers, endpoints, user and project
#: from the token as ``BaseIdentityPlugin`` does (none overrides those).
AUTH_TYPES = frozenset(("password", "v3password", "token", "v3token", "v3applicationcredential"))


def from_state(state):
    """The AccessInfo of a keystoneauth1 auth state string
    (``BaseIdentityPlugin.get_auth_state()``), as ``set_auth_state`` makes it."""
    data = json.loads(state)
    return access.create(body=data["body"], auth_token=data["auth_token"])


class CachedTokenAuth(plugin.BaseAuthPlugin):
    """The plugin of ``factory()``, built only once it is needed."""

    MIN_TOKEN_LIFE_SECONDS = 120

    def __init__(self, auth_ref, factory):
        super().__init__()
        self._cached = auth_ref
        self._factory = factory
        self._real = None
        self._lock = threading.Lock()
        # a 401 of two requests at once (a list reads a page ahead): one
        # invalidate at a time, and the token each thread's request carried
        self._invalidating = threading.Lock()
        self._sent = threading.local()
        # answered once: keystoneauth1 parses the expiry and copies the
        # whole catalog (to normalize it) on every ask, several a request
        self._expires = None
        self._endpoints = {}

    # -- the real plugin -------------------------------------------------

    def _plugin(self):
        """The configured plugin, built once, holding the cached token."""
        with self._lock:
            if self._real is None:
                real = self._factory()
                real.auth_ref = self._cached
                real._discovery_cache.update(self._discovery_cache)
                self._real = real
        return self._real

    def _cache_answers(self):
        """True while the cached token answers (not yet the real plugin):
        it expires in more than ``MIN_TOKEN_LIFE_SECONDS``, as
        ``AccessInfo.will_expire_soon`` tells."""
        if self._real is not None:
            return False
        if self._expires is None:
            self._expires = self._cached.expires
        soon = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(
            seconds=self.MIN_TOKEN_LIFE_SECONDS
        )
        return soon <= self._expires

    @property
    def auth_ref(self):
        return self._real.auth_ref if self._real is not None else self._cached

    # -- answered from the token -----------------------------------------

    def get_access(self, session, **kwargs):
        if self._cache_answers():
            return self._cached
        return self._plugin().get_access(session, **kwargs)

    def get_token(self, session):
        return self.get_access(session).auth_token

    def get_headers(self, session, **kwargs):
        if self._cache_answers():
            headers = super().get_headers(session, **kwargs)
        else:
            headers = self._plugin().get_headers(session, **kwargs)
        self._sent.token = (headers or {}).get(plugin.IDENTITY_AUTH_HEADER_NAME)
        return headers

    def get_user_id(self, session):
        return self.get_access(session).user_id

    def get_project_id(self, session):
        return self.get_access(session).project_id

    def get_connection_params(self, session):
        if self._real is None:
            return super().get_connection_params(session)
        return self._real.get_connection_params(session)

    def get_endpoint_data(
        self,
        session,
        *,
        endpoint_override=None,
        discover_versions=True,
        service_type=None,
        interface=None,
        region_name=None,
        service_name=None,
        allow=None,
        allow_version_hack=True,
        skip_discovery=False,
        min_version=None,
        max_version=None,
        **kwargs,
    ):
        if (
            endpoint_override
            or interface is plugin.AUTH_INTERFACE
            or not service_type
            or not self._cache_answers()
        ):
            return self._plugin().get_endpoint_data(
                session,
                endpoint_override=endpoint_override,
                discover_versions=discover_versions,
                service_type=service_type,
                interface=interface,
                region_name=region_name,
                service_name=service_name,
                allow=allow,
                allow_version_hack=allow_version_hack,
                skip_discovery=skip_discovery,
                min_version=min_version,
                max_version=max_version,
                **kwargs,
            )
        # BaseIdentityPlugin.get_endpoint_data, for a catalog endpoint
        min_version, max_version = discover._normalize_version_args(
            None, min_version, max_version, service_type=service_type
        )
        wanted = interface or "public"
        key = (
            service_type,
            tuple(wanted) if isinstance(wanted, list) else wanted,
            region_name,
            service_name,
        )
        if key not in self._endpoints:
            self._endpoints[key] = self._cached.service_catalog.endpoint_data_for(
                service_type=service_type,
                interface=wanted,
                region_name=region_name,
                service_name=service_name,
            )
        endpoint_data = self._endpoints[key]
        if not endpoint_data:
            return None
        if skip_discovery:
            return copy.copy(endpoint_data)
        try:
            return endpoint_data.get_versioned_data(
                session,
                project_id=self._cached.project_id,
                min_version=min_version,
                max_version=max_version,
                cache=self._discovery_cache,
                discover_versions=discover_versions,
                allow_version_hack=allow_version_hack,
                allow=allow or {},
            )
        except (exceptions.DiscoveryFailure, exceptions.HttpError, exceptions.ConnectionError):
            if max_version or min_version:
                return None
            return endpoint_data

    def get_endpoint(
        self,
        session,
        service_type=None,
        interface=None,
        region_name=None,
        service_name=None,
        version=None,
        allow=None,
        allow_version_hack=True,
        skip_discovery=False,
        min_version=None,
        max_version=None,
        **kwargs,
    ):
        if self._real is not None:
            return self._real.get_endpoint(
                session,
                service_type=service_type,
                interface=interface,
                region_name=region_name,
                service_name=service_name,
                version=version,
                allow=allow,
                allow_version_hack=allow_version_hack,
                skip_discovery=skip_discovery,
                min_version=min_version,
                max_version=max_version,
                **kwargs,
            )
        # BaseIdentityPlugin.get_endpoint
        min_version, max_version = discover._normalize_version_args(
            version, min_version, max_version, service_type=service_type
        )
        endpoint_data = self.get_endpoint_data(
            session,
            service_type=service_type,
            interface=interface,
            region_name=region_name,
            service_name=service_name,
            allow=allow,
            min_version=min_version,
            max_version=max_version,
            discover_versions=False,
            skip_discovery=skip_discovery,
            allow_version_hack=allow_version_hack,
            **kwargs,
        )
        return endpoint_data.url if endpoint_data else None

    def get_auth_state(self):
        if self._real is not None:
            return self._real.get_auth_state()
        # BaseIdentityPlugin.get_auth_state
        return json.dumps({"auth_token": self._cached.auth_token, "body": self._cached._data})

    # -- the real plugin's ----------------------------------------------

    def __getattr__(self, name):
        # anything else a plugin has (get_discovery, auth_url, ...)
        if name.startswith("__") or name in (
            "_real",
            "_cached",
            "_factory",
            "_lock",
            "_invalidating",
            "_sent",
        ):
            raise AttributeError(name)
        return getattr(self._plugin(), name)

    def invalidate(self):
        """Forget the token this thread's request carried (a 401): True to
        try again. A token another thread's 401 already forgot, or
        replaced, is not forgotten again: that request retries with the
        new token (authenticated once, under the real plugin's lock)
        rather than giving up (keystoneauth1's ``invalidate`` answers
        False once ``auth_ref`` is None) or throwing the new one away."""
        with self._invalidating:
            real = self._plugin()
            current = real.auth_ref
            if current is None or current.auth_token != getattr(
                self._sent, "token", current.auth_token
            ):
                return True
            return real.invalidate()

    def set_auth_state(self, data):
        self._plugin().set_auth_state(data)


def _delegate(name):
    def method(self, *args, **kwargs):
        return getattr(self._plugin(), name)(*args, **kwargs)

    method.__name__ = name
    return method


for _name in (
    "get_auth_ref",
    "get_api_major_version",
    "get_all_version_data",
    "get_sp_auth_url",
    "get_sp_url",
    "get_cache_id",
    "get_unscoped_cache_id",
    "get_unscoped_auth_state",
    "set_unscoped_auth_state",
):
    setattr(CachedTokenAuth, _name, _delegate(_name))
del _name
