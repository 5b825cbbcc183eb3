"""Nova quotas: a project's limits (``/os-quota-sets``) and the quota
classes the defaults come from (``/os-quota-class-sets``).

Limits are named as nova names them (``instances``, ``cores``, ``ram``,
``key_pairs``, ``metadata_items``, ``server_groups``,
``server_group_members``, ``injected_files``,
``injected_file_content_bytes``, ``injected_file_path_bytes``, and the old
nova-network ``fixed_ips``, ``floating_ips``, ``security_groups``,
``security_group_rules``, ``networks``); -1 is unlimited. Microversions
removed some: :meth:`QuotaSetManager.check_update` refuses them before any
request, naming the version that removed them.
"""

from urllib.parse import quote
from urllib.parse import urlencode

from occli import api_versions
from occli import base
from occli import exceptions
from occli.v2.compute import base as compute
from occli.v2.network import network_quotas

#: every limit nova has had, in its order
RESOURCES = (
    "cores",
    "fixed_ips",
    "floating_ips",
    "injected_file_content_bytes",
    "injected_file_path_bytes",
    "injected_files",
    "instances",
    "key_pairs",
    "metadata_items",
    "networks",
    "ram",
    "security_group_rules",
    "security_groups",
    "server_group_members",
    "server_groups",
)
_NETWORK = ("fixed_ips", "floating_ips", "networks", "security_group_rules", "security_groups")
_INJECTED = ("injected_file_content_bytes", "injected_file_path_bytes", "injected_files")
#: the microversion from which a quota set no longer takes a limit
REMOVED_FROM_SETS = dict([(r, "2.36") for r in _NETWORK] + [(r, "2.57") for r in _INJECTED])
#: the same for quota classes (their network limits went in 2.50)
REMOVED_FROM_CLASSES = dict([(r, "2.50") for r in _NETWORK] + [(r, "2.57") for r in _INJECTED])
#: the largest limit nova stores
MAX_LIMIT = 0x7FFFFFFF
#: the microversion openstacksdk reads quota sets at (its compute/v2/
#: quota_set.py ``_max_microversion``), so the rows OSC's ``quota show``
#: prints: the last whose answers hold the injected-file limits
OSC_VERSION = "2.56"


class QuotaSet(base.Resource):
    """A project's limits (``id`` is the project); from ``get(detail=True)``
    each limit is ``{"limit", "in_use", "reserved"}``."""


class QuotaClassSet(base.Resource):
    """A quota class's limits (``id`` is the class name)."""


def _previous(version: str) -> str:
    major, minor = version.split(".")
    return "%s.%d" % (major, int(minor) - 1)


class LimitSetManager(compute.ComputeManager):
    """What quota sets and quota classes share: the checks of an update."""

    #: ``{limit: the microversion that removed it}``
    removed: dict[str, str] = {}

    def check_update(self, **limits: int) -> None:
        """The checks of :meth:`update`, before any request: known limit
        names, values from -1 to 2147483647 (``ValidationError``), and
        none the microversion in use removed (``UnsupportedVersion``)."""
        network_quotas.check_limits(limits, RESOURCES, MAX_LIMIT)
        for name in limits:
            removed = self.removed.get(name)
            if removed:
                self._require(
                    self.api_version,
                    "2.1",
                    _previous(removed),
                    what="the {%s} quota (removed in compute API %s)" % (name, removed),
                    params=(name,),
                )


class QuotaSetManager(LimitSetManager):
    """``client.quotas``: show, set and revert a project's limits.

    ``project_id`` defaults to the token's project where it may be left
    out. Showing another project's limits, and every change, needs an
    admin (nova's default policy). ``user_id`` names one user's limits in
    the project, as novaclient's ``quotas.get(tenant_id, user_id=...)``:
    nova keeps them within the project's, and counts that user's servers
    against them.
    """

    resource_class = QuotaSet
    removed = REMOVED_FROM_SETS

    def _project(self, project_id: str | None) -> str | None:
        return project_id or self.client.session.get_project_id()

    def _url(self, project_id: str | None, *parts: str, user_id: str | None = None) -> str:
        url = "/".join(("/os-quota-sets", quote(str(self._project(project_id)), safe="")) + parts)
        return url + ("?" + urlencode({"user_id": user_id}) if user_id else "")

    def osc_version(self) -> api_versions.APIVersion | None:
        """The microversion ``quota show`` reads at: :data:`OSC_VERSION`
        where the one in use is later, else None (the one in use; always
        when the user pinned one, as openstacksdk sends a pinned one)."""
        if self.client.pinned_compute_version() or self.api_version <= OSC_VERSION:
            return None
        return api_versions.APIVersion(OSC_VERSION)

    def _read(self, url: str, microversion: str | api_versions.APIVersion | None) -> base.Resource:
        response = self._request("GET", url, microversion=microversion)
        return self._resource(self._member(response, self._body(response), "quota_set"), response)

    def get(
        self,
        project_id: str | None = None,
        detail: bool = False,
        user_id: str | None = None,
        microversion: str | api_versions.APIVersion | None = None,
    ) -> base.Resource:
        """The project's (or ``user_id``'s) limits, at ``microversion``
        (None: the one in use); with ``detail``, each with its usage
        (``{"limit", "in_use", "reserved"}``)."""
        parts = ("detail",) if detail else ()
        return self._read(self._url(project_id, *parts, user_id=user_id), microversion)

    def defaults(
        self,
        project_id: str | None = None,
        microversion: str | api_versions.APIVersion | None = None,
    ) -> base.Resource:
        """The limits a project gets unless some are set for it, at
        ``microversion`` (None: the one in use)."""
        return self._read(self._url(project_id, "defaults"), microversion)

    def update(
        self, project_id: str, force: bool = False, user_id: str | None = None, **limits: int
    ) -> base.Resource:
        """Set some of ``project_id``'s (or ``user_id``'s) limits (admin);
        the answer holds them all. Nova refuses a limit below what the
        project (user) uses unless ``force``, and a user's above what the
        project's leaves. See :meth:`check_update`."""
        self.check_update(**limits)
        body: dict[str, object] = dict(limits)
        if force:
            body["force"] = True
        url = self._url(project_id, user_id=user_id)
        return self._update(url, {"quota_set": body}, "quota_set")

    def delete(self, project_id: str, user_id: str | None = None) -> base.Result:
        """Revert ``project_id`` to the default limits, or ``user_id`` to
        the project's (admin); a Result."""
        if not project_id:
            raise exceptions.ValidationError("Name the project whose quotas to revert.")
        return self._delete(self._url(project_id, user_id=user_id))


class QuotaClassSetManager(LimitSetManager):
    """``client.quota_classes``: the limits of a quota class (admin). The
    class ``default`` holds the defaults every project gets."""

    resource_class = QuotaClassSet
    removed = REMOVED_FROM_CLASSES

    def _url(self, class_name: str) -> str:
        return "/os-quota-class-sets/%s" % quote(str(class_name), safe="")

    def get(self, class_name: str = "default") -> base.Resource:
        return self._get(self._url(class_name), "quota_class_set")

    def update(self, class_name: str, **limits: int) -> base.Resource:
        """Set some of the class's limits; see :meth:`check_update`."""
        self.check_update(**limits)
        return self._update(
            self._url(class_name), {"quota_class_set": dict(limits)}, "quota_class_set"
        )
