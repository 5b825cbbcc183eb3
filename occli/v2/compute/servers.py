"""Nova servers: the Server resource and ServerManager.

Every manager method accepts a :class:`Server` or a server id. Images and
flavors are passed as ids or resources (names are resolved by the caller,
e.g. with ``client.images.find_resource``). Server creation always POSTs
``/servers`` (``/os-volumes_boot`` is gone from 2.103).
"""

import base64
import builtins
import re
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Iterator
from collections.abc import Mapping
from typing import IO
from typing import Any
from typing import TypeAlias
from urllib.parse import quote
from urllib.parse import urlparse

from occli import api_versions
from occli import base
from occli import exceptions
from occli import strutils
from occli.v2.compute import base as compute
from occli.v2.compute import server_lifecycle

# Nova's defaults for injected (personality) files and its schema limits.
MAX_FILES = 5
MAX_FILE_BYTES = 10 * 1024
MAX_FILE_PATH = 255
MAX_USER_DATA = 65535
MAX_META_LENGTH = 255
PERSONALITY_MAX_VERSION = "2.56"
TAGS_VERSION = "2.26"
#: server list filters and the microversion Nova reads them from
LIST_FILTER_VERSIONS = {
    "tags": TAGS_VERSION,
    "tags-any": TAGS_VERSION,
    "not-tags": TAGS_VERSION,
    "not-tags-any": TAGS_VERSION,
    "changes-before": "2.66",
    "locked": "2.73",
}
MAX_TAG_LENGTH = 60

# novaclient-style --nic keys → API keys of ``server.networks[]``
_NIC_KEYS = {
    "net-id": "uuid",
    "port-id": "port",
    "v4-fixed-ip": "fixed_ip",
    "v6-fixed-ip": "fixed_ip",
    "tag": "tag",
}

#: What user data and personality files may be given as: text, bytes or
#: a file object, read here.
Contents: TypeAlias = str | bytes | IO[str] | IO[bytes]
#: A server's ``networks`` as the request sends them: ``"auto"``,
#: ``"none"`` or one entry per NIC.
Networks: TypeAlias = str | list[dict[str, str]]


#: :data:`occli.base.CLEAR`, importable from here as before.
CLEAR = base.CLEAR


class Server(base.Resource):
    """A Nova server; action methods delegate to the manager."""

    @property
    def task_state(self) -> str | None:
        return self._info.get("OS-EXT-STS:task_state")


def _delegate(name: str) -> Callable[..., Any]:
    def method(self: Server, *args: Any, **kwargs: Any) -> Any:
        return getattr(self.manager, name)(self, *args, **kwargs)

    method.__name__ = name
    method.__doc__ = "``client.servers.%s(this server, …)``." % name
    return method


for _name in (
    "delete",
    "update",
    "set_meta",
    "delete_meta",
    "reboot",
    "start",
    "stop",
    "pause",
    "unpause",
    "suspend",
    "resume",
    "lock",
    "unlock",
    "rebuild",
    "resize",
    "confirm_resize",
    "revert_resize",
    "migrate",
    "live_migrate",
    "evacuate",
    "get_console_output",
    "create_image",
    "backup",
    "get_console_url",
    "get_password",
    "clear_password",
    "ips",
    "force_delete",
    "restore",
    "inject_network_info",
    "shelve",
    "shelve_offload",
    "unshelve",
    "rescue",
    "unrescue",
    "reset_state",
    "change_password",
    "trigger_crash_dump",
    "diagnostics",
    "topology",
):
    setattr(Server, _name, _delegate(_name))
del _name


#: :func:`occli.strutils.is_uuid`, by the name its callers know
is_uuid = strutils.is_uuid


def _check_files(files: Mapping[str, bytes]) -> None:
    """Nova's personality file limits (``files`` values are bytes)."""
    if len(files) > MAX_FILES:
        raise exceptions.ValidationError(
            "At most %d personality files ({files}) can be injected, got %d."
            % (MAX_FILES, len(files)),
            params=("files",),
        )
    for path, contents in files.items():
        if len(path.encode("utf-8")) > MAX_FILE_PATH:
            raise exceptions.ValidationError(
                "Personality file path %r ({files}) is longer than %d bytes."
                % (path[:40] + "…", MAX_FILE_PATH),
                params=("files",),
            )
        if len(contents) > MAX_FILE_BYTES:
            raise exceptions.ValidationError(
                "Personality file %s ({files}) is %d bytes; the limit is %d "
                "bytes (10 KiB)." % (path, len(contents), MAX_FILE_BYTES),
                params=("files",),
            )


def _check_metadata(metadata: Mapping[str, str] | None) -> None:
    """Keys and values of server metadata are at most 255 characters."""
    for key, value in (metadata or {}).items():
        for text, what in ((key, "key"), (value, "value")):
            if text is not None and len(str(text)) > MAX_META_LENGTH:
                raise exceptions.ValidationError(
                    "Metadata %s %r ({metadata}) is longer than %d characters."
                    % (what, str(text)[:40] + "…", MAX_META_LENGTH),
                    params=("metadata",),
                )


def _check_counts(min_count: int | None, max_count: int | None) -> None:
    for value, param in ((min_count, "min_count"), (max_count, "max_count")):
        if value is not None and int(value) < 1:
            raise exceptions.ValidationError("{%s} must be 1 or more." % param, params=(param,))
    if min_count is not None and max_count is not None and int(min_count) > int(max_count):
        raise exceptions.ValidationError(
            "{min_count} (%s) must not be greater than {max_count} (%s)." % (min_count, max_count),
            params=("min_count", "max_count"),
        )


def boot_volume_bdm(
    image: base.Resource | str, size: int, delete_on_termination: bool | None = None
) -> dict[str, object]:
    """The BDMv2 boot disk of ``--boot-from-volume``: a ``size`` GiB volume
    made from ``image`` (boot index 0), as OSC builds it; send it with no
    ``imageRef`` (``image=None`` to :meth:`ServerManager.create`)."""
    bdm: dict[str, object] = {
        "uuid": str(base.getid(image)),
        "source_type": "image",
        "destination_type": "volume",
        "boot_index": 0,
        "volume_size": int(size),
    }
    if delete_on_termination is not None:
        bdm["delete_on_termination"] = bool(delete_on_termination)
    return bdm


def boot_source_bdm(source: base.Resource | str, source_type: str) -> dict[str, object]:
    """The BDMv2 boot disk of ``--volume`` (``source_type`` ``"volume"``:
    that volume) or ``--snapshot`` (``"snapshot"``: a new volume made from
    it, kept when the server is deleted), as OSC builds them."""
    bdm: dict[str, object] = {
        "uuid": str(base.getid(source)),
        "source_type": source_type,
        "destination_type": "volume",
        "boot_index": 0,
    }
    if source_type == "snapshot":
        bdm["delete_on_termination"] = False
    return bdm


def swap_bdm(size_mib: int) -> dict[str, object]:
    """A swap disk of ``size_mib`` MiB (BDMv2 blank/local, as novaclient)."""
    return {
        "source_type": "blank",
        "destination_type": "local",
        "boot_index": -1,
        "delete_on_termination": True,
        "guest_format": "swap",
        "volume_size": int(size_mib),
    }


def ephemeral_bdm(size_gib: int, guest_format: str | None = None) -> dict[str, object]:
    """An ephemeral disk of ``size_gib`` GiB (BDMv2 blank/local)."""
    bdm: dict[str, object] = {
        "source_type": "blank",
        "destination_type": "local",
        "boot_index": -1,
        "delete_on_termination": True,
        "volume_size": int(size_gib),
    }
    if guest_format:
        bdm["guest_format"] = guest_format
    return bdm


def _to_bytes(data: Contents) -> bytes:
    if hasattr(data, "read"):
        data = data.read()
    if isinstance(data, str):
        data = data.encode("utf-8")
    return bytes(data)


def _b64(data: Contents) -> str:
    return base64.b64encode(_to_bytes(data)).decode("ascii")


class ServerManager(server_lifecycle.LifecycleMixin, compute.ComputeManager):
    resource_class = Server

    # -- reading --------------------------------------------------------

    def list(
        self,
        detailed: bool = True,
        search_opts: Mapping[str, Any] | None = None,
        marker: str | None = None,
        limit: int | None = None,
        sort_keys: Iterable[str] | None = None,
        sort_dirs: Iterable[str] | None = None,
    ) -> base.ListWithMeta:
        """Every server, following pages (all unless ``limit``; -1 = all):
        a list (:class:`occli.base.ListWithMeta`, with the ``request_ids``
        of its pages), as novaclient's. :meth:`iter` yields them lazily,
        :meth:`pages` a page at a time.

        ``search_opts`` are Nova query filters (``name`` is a regex,
        ``all_tenants``, ``status``, ``changes-since``, ``reservation_id``,
        …), the dict novaclient takes; booleans are sent as
        ``true``/``false``, None values are left out.
        ``sort_keys``/``sort_dirs`` are repeated. The positional order is
        novaclient's.
        """
        return self._list_all(
            *self._list_request(detailed, search_opts, marker, sort_keys, sort_dirs), limit=limit
        )

    def iter(
        self,
        detailed: bool = True,
        search_opts: Mapping[str, Any] | None = None,
        marker: str | None = None,
        limit: int | None = None,
        sort_keys: Iterable[str] | None = None,
        sort_dirs: Iterable[str] | None = None,
    ) -> Iterator[base.Resource]:
        """Like :meth:`list`, lazily: yield servers, asking for each page
        when the previous one was used."""
        return self._list(
            *self._list_request(detailed, search_opts, marker, sort_keys, sort_dirs), limit=limit
        )

    list_iter = iter

    def pages(
        self,
        detailed: bool = True,
        search_opts: Mapping[str, Any] | None = None,
        marker: str | None = None,
        limit: int | None = None,
        sort_keys: Iterable[str] | None = None,
        sort_dirs: Iterable[str] | None = None,
    ) -> Iterator[builtins.list[base.Resource]]:
        """Like :meth:`list`, a list of servers per page: each page is
        asked for when the previous one was used (what ``occli server
        list`` streams)."""
        return self._pages(
            *self._list_request(detailed, search_opts, marker, sort_keys, sort_dirs), limit=limit
        )

    def check_list(self, search_opts: Mapping[str, Any] | None = None) -> None:
        """UnsupportedVersion for a filter of ``search_opts`` the
        microversion lacks (Nova would silently ignore it):
        :data:`LIST_FILTER_VERSIONS`."""
        for key, start in LIST_FILTER_VERSIONS.items():
            if (search_opts or {}).get(key) is not None:
                self._require(self.api_version, start, what="the %s filter" % key)

    def _list_request(
        self,
        detailed: bool,
        search_opts: Mapping[str, Any] | None,
        marker: str | None,
        sort_keys: Iterable[str] | None,
        sort_dirs: Iterable[str] | None,
    ) -> tuple[str, str, dict[str, Any]]:
        """``(url, response key, params)`` of a server list."""
        params: dict[str, Any] = {}
        for key, value in (search_opts or {}).items():
            if isinstance(value, bool):
                value = "true" if value else "false"
            params[key] = value
        params["marker"] = marker
        if sort_keys:
            params["sort_key"] = list(sort_keys)
        if sort_dirs:
            params["sort_dir"] = list(sort_dirs)
        url = "/servers/detail" if detailed else "/servers"
        return url, "servers", params

    def get(self, server: base.Resource | str) -> base.Resource:
        return self._get("/servers/%s" % base.getid(server), "server")

    def find_resource(
        self, name_or_id: base.Resource | str, all_projects: bool = False
    ) -> base.Resource:
        """A server by id, else by exact name.

        Server ids are UUIDs, so anything else goes straight to the name
        lookup: Nova's ``name`` filter (a regex, anchored and escaped here)
        followed by an exact client-side match; with ``all_projects``
        (admins) the names of every project's servers.
        """
        if isinstance(name_or_id, base.Resource) or is_uuid(name_or_id):
            return super().find_resource(name_or_id)
        if all_projects:
            matches = self.find_all(name=str(name_or_id), all_projects=True)
        else:
            matches = self._find_by_name(str(name_or_id))
        return self._one_named(matches, name_or_id)

    def _find_by_name(self, name: str) -> builtins.list[base.Resource]:
        return self.find_all(name=name)

    def find_all(self, all_projects: bool = False, **filters: Any) -> builtins.list[base.Resource]:
        """Servers matching ``filters`` exactly; ``name`` is also sent to
        Nova (as an anchored regex) so only candidates are listed;
        ``all_projects``: every project's (admins)."""
        search: dict[str, object] = {"all_tenants": True} if all_projects else {}
        if "name" in filters:
            search["name"] = "^%s$" % re.escape(str(filters["name"]))
        return [
            s
            for s in self.list(search_opts=search)
            if all(getattr(s, k, None) == v for k, v in filters.items())
        ]

    # -- create ---------------------------------------------------------

    def create(
        self,
        name: str,
        image: base.Resource | str | None,
        flavor: base.Resource | str,
        *args: Any,
        **options: Any,
    ) -> base.Resource | base.StrWithMeta:
        """Boot a server (POST /servers); returns the created Server.

        novaclient's ``ServerManager.create`` calls work unchanged: its
        positional order after ``flavor`` (:data:`NOVACLIENT_CREATE_ORDER`)
        and its names ``meta`` (``metadata``), ``userdata``
        (``user_data``) and ``reservation_id`` (``return_reservation_id``)
        are accepted as aliases of occli's names below.

        ``image`` may be None when a block device mapping holds the boot
        disk. The ``options``, all optional:

        * ``key_name``, ``availability_zone``, ``metadata``,
          ``security_groups`` (names or ids, as Nova resolves them; an
          empty list is sent as it is), ``scheduler_hints``,
          ``config_drive``, ``disk_config``, ``admin_pass``,
          ``access_ip_v4``, ``access_ip_v6``, ``min_count``, ``max_count``;
        * ``user_data`` and ``files`` (``{path: contents}``, personality
          files: such a request uses 2.56) values: str, bytes or file
          objects, base64-encoded here;
        * ``nics``: ``"auto"``, ``"none"`` or a list of dicts with
          novaclient keys (``net-id``, ``port-id``, ``v4-fixed-ip``,
          ``v6-fixed-ip``, ``tag``) or API keys, holding ids (resolve
          names with ``client.networks.find_many``);
        * ``block_device_mapping``: the legacy ``{dev: "id:type:size:delete"}``;
          ``block_device_mapping_v2``: entries such as :func:`boot_volume_bdm`,
          :func:`boot_source_bdm`, :func:`swap_bdm` and :func:`ephemeral_bdm`
          build;
        * from the microversion ``CREATE_VERSIONS`` names: ``description``,
          ``tags``, ``trusted_image_certificates``, ``host``,
          ``hypervisor_hostname``, ``hostname``;
        * ``return_reservation_id``: return the reservation id (str)
          instead (find the servers with
          ``list(search_opts={"reservation_id": …})``).

        Invalid options raise ValidationError, and options the microversion
        lacks UnsupportedVersion, before any request (:meth:`check_create`
        runs the same checks alone).
        """
        options = self._create_options(args, options, "create")
        body, version = self._create_request(name, image, flavor, **options)
        response = self._request("POST", "/servers", body=body, microversion=version)
        data = self._body(response)
        if options.get("return_reservation_id"):
            return self._value(response, data, "reservation_id", str)
        return self._resource(self._member(response, data, "server"), response)

    def check_create(self, **options: Any) -> api_versions.APIVersion:
        """Check :meth:`create`'s ``options`` as it does, creating nothing;
        returns the microversion the request would use.

        Nothing is sent but the version discovery (once per client, and
        none when a version is pinned). File objects in ``options`` are
        read.
        """
        options = self._create_options((), options, "check_create")
        return self._create_request(None, None, None, **options)[1]

    #: novaclient's positional arguments of create after ``flavor``
    NOVACLIENT_CREATE_ORDER = (
        "meta",
        "files",
        "reservation_id",
        "min_count",
        "max_count",
        "security_groups",
        "userdata",
        "key_name",
        "availability_zone",
        "block_device_mapping",
        "block_device_mapping_v2",
        "nics",
        "scheduler_hints",
        "config_drive",
        "disk_config",
        "admin_pass",
        "access_ip_v4",
        "access_ip_v6",
        "trusted_image_certificates",
        "host",
        "hypervisor_hostname",
        "hostname",
    )
    #: novaclient's names of create arguments → occli's
    NOVACLIENT_CREATE_ALIASES = {
        "meta": "metadata",
        "userdata": "user_data",
        "reservation_id": "return_reservation_id",
    }

    def _create_options(
        self, args: tuple[Any, ...], options: Mapping[str, Any], where: str
    ) -> dict[str, Any]:
        """``options`` with ``args`` (novaclient's positional order) and
        novaclient's names moved to occli's."""
        if len(args) > len(self.NOVACLIENT_CREATE_ORDER):
            raise TypeError(
                "%s() takes at most %d positional arguments"
                % (where, 3 + len(self.NOVACLIENT_CREATE_ORDER))
            )
        options = dict(options)
        for key, value in zip(self.NOVACLIENT_CREATE_ORDER, args, strict=False):
            if key in options:
                raise TypeError("%s() got multiple values for argument %r" % (where, key))
            options[key] = value
        base.renamed(options, self.NOVACLIENT_CREATE_ALIASES, where)
        if options.get("return_reservation_id") is not None:
            options["return_reservation_id"] = bool(options["return_reservation_id"])
        return options

    # create arguments → (first microversion, what the error calls them)
    CREATE_VERSIONS = {
        "description": ("2.19", "a server description"),
        "tags": ("2.52", "server tags on create"),
        "trusted_image_certificates": ("2.63", "trusted image certificates"),
        "host": ("2.74", "a requested host"),
        "hypervisor_hostname": ("2.74", "a requested hypervisor hostname"),
        "hostname": ("2.90", "a server hostname"),
    }

    def _create_request(
        self,
        name: str | None,
        image: base.Resource | str | None,
        flavor: base.Resource | str | None,
        key_name: str | None = None,
        availability_zone: str | None = None,
        user_data: Contents | None = None,
        files: Mapping[str, Contents] | None = None,
        metadata: Mapping[str, str] | None = None,
        security_groups: Iterable[str] | None = None,
        nics: str | Iterable[Mapping[str, str]] | None = None,
        block_device_mapping: Mapping[str, str] | None = None,
        block_device_mapping_v2: Iterable[Mapping[str, object]] | None = None,
        scheduler_hints: Mapping[str, object] | None = None,
        config_drive: bool | None = None,
        disk_config: str | None = None,
        admin_pass: str | None = None,
        access_ip_v4: str | None = None,
        access_ip_v6: str | None = None,
        min_count: int | None = None,
        max_count: int | None = None,
        return_reservation_id: bool = False,
        description: str | None = None,
        tags: Iterable[str] | None = None,
        hostname: str | None = None,
        trusted_image_certificates: Iterable[str] | None = None,
        host: str | None = None,
        hypervisor_hostname: str | None = None,
    ) -> tuple[dict[str, object], api_versions.APIVersion]:
        """``(body, microversion)`` of a create request, options checked."""
        personality = {path: _to_bytes(data) for path, data in (files or {}).items()}
        _check_files(personality)
        _check_metadata(metadata)
        _check_counts(min_count, max_count)
        if user_data is not None:
            user_data = _b64(user_data)
            if len(user_data) > MAX_USER_DATA:
                raise exceptions.ValidationError(
                    "User data ({user_data}) is %d characters once "
                    "base64-encoded; the limit is %d." % (len(user_data), MAX_USER_DATA),
                    params=("user_data",),
                )
        networks = _networks(nics)
        legacy_bdms = _legacy_bdm(block_device_mapping) if block_device_mapping else None
        # the checks above need no request; those below need the version
        version = self._create_version(bool(personality))
        features = {
            "description": description,
            "tags": tags,
            "hostname": hostname,
            "trusted_image_certificates": trusted_image_certificates,
            "host": host,
            "hypervisor_hostname": hypervisor_hostname,
        }
        for key, value in features.items():
            if value is not None:
                start, what = self.CREATE_VERSIONS[key]
                self._require(version, start, what=what)
        networks = self._require_networks(networks, version)

        server: dict[str, object] = {"name": name, "flavorRef": str(base.getid(flavor))}
        if image is not None:
            server["imageRef"] = str(base.getid(image))
        optional = {
            "key_name": key_name,
            "availability_zone": availability_zone,
            "metadata": metadata,
            "config_drive": config_drive,
            "OS-DCF:diskConfig": disk_config,
            "adminPass": admin_pass,
            "accessIPv4": access_ip_v4,
            "accessIPv6": access_ip_v6,
            "min_count": min_count,
            "max_count": max_count,
            "description": description,
            "hostname": hostname,
            "tags": list(tags) if tags is not None else None,
            "trusted_image_certificates": list(trusted_image_certificates)
            if trusted_image_certificates is not None
            else None,
            "host": host,
            "hypervisor_hostname": hypervisor_hostname,
        }
        server.update((k, v) for k, v in optional.items() if v is not None)
        if return_reservation_id:
            server["return_reservation_id"] = True
        if user_data is not None:
            server["user_data"] = user_data
        if personality:
            server["personality"] = [
                {"path": path, "contents": _b64(data)} for path, data in personality.items()
            ]
        if security_groups is not None:
            server["security_groups"] = [{"name": g} for g in security_groups]
        if networks is not None:
            server["networks"] = networks
        if legacy_bdms:
            server["block_device_mapping"] = legacy_bdms
        if block_device_mapping_v2:
            bdms = [dict(b) for b in block_device_mapping_v2]
            if image is not None and not any(str(b.get("boot_index")) == "0" for b in bdms):
                # as novaclient: the image stays the boot disk (bug 1433609)
                bdms.insert(
                    0,
                    {
                        "uuid": str(base.getid(image)),
                        "source_type": "image",
                        "destination_type": "local",
                        "boot_index": 0,
                        "delete_on_termination": True,
                    },
                )
            server["block_device_mapping_v2"] = bdms

        body: dict[str, object] = {"server": server}
        if scheduler_hints:
            body["os:scheduler_hints"] = dict(scheduler_hints)
        return body, version

    def _create_version(self, with_files: bool) -> api_versions.APIVersion:
        """The microversion of a create request.

        Personality files were removed in 2.57: such a request is sent at
        2.56 unless the user pinned a higher version, which is an error.
        """
        capped = None
        if with_files:
            capped = self._capped_at(
                PERSONALITY_MAX_VERSION, what="personality files ({files})", params=("files",)
            )
        return capped or self.api_version

    def _require_networks(
        self, networks: Networks | None, version: api_versions.APIVersion
    ) -> Networks | None:
        """The request's ``networks`` (None: the member is left out)."""
        if networks is None:
            # 2.37+ requires networks; "auto" is what a user means by default
            return "auto" if version >= "2.37" else None
        if isinstance(networks, str):
            self._require(version, "2.37", what="automatic network allocation ('%s')" % networks)
        elif any("tag" in entry for entry in networks):
            self._require(version, "2.42", what="NIC tags")
        return networks

    # -- changes --------------------------------------------------------

    def delete(self, server: base.Resource | str) -> base.Result:
        """Delete a server; a :class:`occli.base.Result`."""
        return self._delete("/servers/%s" % base.getid(server))

    def update(
        self,
        server: base.Resource | str,
        name: str | None = None,
        description: str | base.Clear | None = None,
        hostname: str | None = None,
    ) -> base.Resource:
        """Rename, describe or re-hostname a server (PUT /servers/{id}).

        None leaves a field unchanged. ``description=CLEAR``
        (``occli.v2.compute.servers.CLEAR``) removes the description (sent as JSON
        ``null``); ``description=""`` sets it to the empty string, as Nova
        stores it. ``description`` needs compute API 2.19, ``hostname``
        2.90 (see :meth:`check_update`). Returns the updated Server.
        """
        body = self._update_body(name, description, hostname)
        return self._update("/servers/%s" % base.getid(server), {"server": body}, "server")

    def check_update(
        self,
        name: str | None = None,
        description: str | base.Clear | None = None,
        hostname: str | None = None,
    ) -> None:
        """Check :meth:`update`'s arguments as it does, changing nothing."""
        self._update_body(name, description, hostname)

    def _update_body(
        self, name: str | None, description: str | base.Clear | None, hostname: str | None
    ) -> dict[str, str | None]:
        body: dict[str, str | None] = {}
        if name is not None:
            body["name"] = name
        if description is not None:
            self._require(self.api_version, "2.19", what="a server description")
            body["description"] = None if isinstance(description, base.Clear) else description
        if hostname is not None:
            self._require(self.api_version, "2.90", what="a server hostname")
            body["hostname"] = hostname
        return body

    def set_meta(
        self, server: base.Resource | str, metadata: Mapping[str, str]
    ) -> base.DictWithMeta:
        """Merge ``metadata`` into the server's; returns the full dict
        (a :class:`occli.base.DictWithMeta`, with ``request_ids``)."""
        self.check_metadata(metadata)
        response = self._request(
            "POST", "/servers/%s/metadata" % base.getid(server), body={"metadata": dict(metadata)}
        )
        return base.DictWithMeta(
            self._value(response, self._body(response), "metadata", dict, {}),
            base._request_ids(response),
        )

    set_metadata = set_meta

    def check_metadata(self, metadata: Mapping[str, str] | None) -> None:
        """ValidationError unless keys and values have 255 characters at
        most, as Nova requires."""
        _check_metadata(metadata)

    def delete_meta(self, server: base.Resource | str, keys: Iterable[str]) -> base.Result:
        """Delete metadata ``keys`` (one request per key); a Result with
        the request ids of all."""
        request_ids: list[str] = []
        for key in keys:
            request_ids += self._delete(
                "/servers/%s/metadata/%s" % (base.getid(server), quote(key, safe=""))
            ).request_ids
        return base.Result(request_ids=request_ids)

    # -- actions (POST /servers/{id}/action) ----------------------------
    # Those answering no server return a :class:`occli.base.Result`.

    # -- tags (2.26+) ----------------------------------------------------

    def check_tags(self, tags: Iterable[str] = ()) -> None:
        """UnsupportedVersion before 2.26; ValidationError for a tag Nova
        refuses (empty, over 60 characters, with ``/`` or ``,``)."""
        self._require(self.api_version, TAGS_VERSION, what="server tags")
        for tag in tags:
            if not tag or len(tag) > MAX_TAG_LENGTH or "/" in tag or "," in tag:
                raise exceptions.ValidationError(
                    "Tag %r ({tags}) must be 1-%d characters without '/' or ','."
                    % (tag, MAX_TAG_LENGTH),
                    params=("tags",),
                )

    def _tags_url(self, server: base.Resource | str, tag: str | None = None) -> str:
        url = "/servers/%s/tags" % base.getid(server)
        return url if tag is None else url + "/" + quote(tag, safe="")

    def tag_list(self, server: base.Resource | str) -> builtins.list[str]:
        """The server's tags (a list of str)."""
        self.check_tags()
        response = self._request("GET", self._tags_url(server))
        return self._items(response, self._body(response), "tags", kind=str)

    def add_tag(self, server: base.Resource | str, tag: str) -> base.Result:
        """Add one tag (a Result; nothing changes if the server has it)."""
        self.check_tags([tag])
        return self._result(self._request("PUT", self._tags_url(server, tag)))

    def set_tags(self, server: base.Resource | str, tags: Iterable[str]) -> builtins.list[str]:
        """Replace the server's tags by ``tags`` (at most 50); the new list."""
        tags = list(tags)
        self.check_tags(tags)
        response = self._request("PUT", self._tags_url(server), body={"tags": tags})
        return self._items(response, self._body(response), "tags", kind=str)

    def delete_tag(self, server: base.Resource | str, tag: str) -> base.Result:
        """Remove one tag (NotFound if the server does not have it)."""
        self.check_tags()
        return self._delete(self._tags_url(server, tag))

    def delete_all_tags(self, server: base.Resource | str) -> base.Result:
        self.check_tags()
        return self._delete(self._tags_url(server))

    def _server_action(
        self, server: base.Resource | str, action: str, info: object = None
    ) -> base.Result:
        return self._action("/servers/%s/action" % base.getid(server), action, info)

    def reboot(
        self, server: base.Resource | str, hard: bool | str = False, reboot_type: str | None = None
    ) -> base.Result:
        """Reboot, soft unless ``hard``; a Result. novaclient's
        ``reboot_type`` (``"SOFT"`` or ``"HARD"``, also as the second
        positional argument) is accepted."""
        if isinstance(hard, str):
            reboot_type, hard = hard, False
        if reboot_type is not None:
            if str(reboot_type).upper() not in ("SOFT", "HARD"):
                raise exceptions.ValidationError(
                    "{reboot_type} must be SOFT or HARD, not %r." % (reboot_type,),
                    params=("reboot_type",),
                )
            hard = str(reboot_type).upper() == "HARD"
        return self._server_action(server, "reboot", {"type": "HARD" if hard else "SOFT"})

    def start(self, server: base.Resource | str) -> base.Result:
        return self._server_action(server, "os-start")

    def stop(self, server: base.Resource | str) -> base.Result:
        return self._server_action(server, "os-stop")

    def pause(self, server: base.Resource | str) -> base.Result:
        return self._server_action(server, "pause")

    def unpause(self, server: base.Resource | str) -> base.Result:
        return self._server_action(server, "unpause")

    def suspend(self, server: base.Resource | str) -> base.Result:
        return self._server_action(server, "suspend")

    def resume(self, server: base.Resource | str) -> base.Result:
        return self._server_action(server, "resume")

    def lock(self, server: base.Resource | str, reason: str | None = None) -> base.Result:
        info = None
        if reason is not None:
            self._require(self.api_version, "2.73", what="a lock reason")
            info = {"locked_reason": reason}
        return self._server_action(server, "lock", info)

    def unlock(self, server: base.Resource | str) -> base.Result:
        return self._server_action(server, "unlock")

    def rebuild(
        self,
        server: base.Resource | str,
        image: base.Resource | str,
        name: str | None = None,
        admin_pass: str | None = None,
        description: str | None = None,
        metadata: Mapping[str, str] | None = None,
        preserve_ephemeral: bool | None = None,
        disk_config: str | None = None,
        key_name: str | base.Clear | None = None,
        user_data: Contents | base.Clear | None = None,
        hostname: str | None = None,
        trusted_image_certificates: Iterable[str] | base.Clear | None = None,
        **novaclient_names: Any,
    ) -> base.Resource:
        """Rebuild from ``image``; returns the Server of the response body.

        None leaves a field out (Nova keeps the server's). ``key_name``
        (2.54), ``user_data`` (2.57) and ``trusted_image_certificates``
        (a list of certificate ids, 2.63) may be :data:`CLEAR` to remove
        them; ``description`` needs 2.19, ``hostname`` 2.90.
        :meth:`check_rebuild` runs the checks alone.

        novaclient's names are accepted as keywords: ``password``
        (``admin_pass``), ``meta`` (``metadata``), ``userdata``
        (``user_data``).
        """
        aliases = {"password": "admin_pass", "meta": "metadata", "userdata": "user_data"}
        unknown = set(novaclient_names) - set(aliases)
        if unknown:
            raise TypeError("rebuild() got an unexpected keyword argument %r" % sorted(unknown)[0])
        ours: dict[str, Any] = {
            "admin_pass": admin_pass,
            "metadata": metadata,
            "user_data": user_data,
        }
        given = {k: v for k, v in ours.items() if v is not None}
        given = base.renamed(dict(given, **novaclient_names), aliases, "rebuild")
        admin_pass, metadata, user_data = (given.get(k) for k in ours)
        self.check_rebuild(
            description=description,
            metadata=metadata,
            key_name=key_name,
            user_data=user_data,
            hostname=hostname,
            trusted_image_certificates=trusted_image_certificates,
        )
        info: dict[str, object] = {"imageRef": str(base.getid(image))}
        optional = {
            "name": name,
            "adminPass": admin_pass,
            "description": description,
            "metadata": metadata,
            "preserve_ephemeral": preserve_ephemeral,
            "OS-DCF:diskConfig": disk_config,
            "key_name": key_name,
            "hostname": hostname,
            "user_data": user_data
            if user_data is None or isinstance(user_data, base.Clear)
            else _b64(user_data),
            "trusted_image_certificates": trusted_image_certificates
            if trusted_image_certificates is None
            or isinstance(trusted_image_certificates, base.Clear)
            else list(trusted_image_certificates),
        }
        info.update((k, None if v is CLEAR else v) for k, v in optional.items() if v is not None)
        url = "/servers/%s/action" % base.getid(server)
        result = self._action(url, "rebuild", info, response_key="server")
        return result if isinstance(result, Server) else self.get(server)

    def check_rebuild(
        self,
        description: str | None = None,
        metadata: Mapping[str, str] | None = None,
        key_name: str | base.Clear | None = None,
        user_data: Contents | base.Clear | None = None,
        hostname: str | None = None,
        trusted_image_certificates: Iterable[str] | base.Clear | None = None,
    ) -> None:
        """Check :meth:`rebuild`'s options as it does, sending nothing."""
        version = self.api_version
        for value, start, what in (
            (description, "2.19", "a server description"),
            (key_name, "2.54", "a key name on rebuild"),
            (user_data, "2.57", "user data on rebuild"),
            (trusted_image_certificates, "2.63", "trusted image certificates"),
            (hostname, "2.90", "a server hostname"),
        ):
            if value is not None:
                self._require(version, start, what=what)
        if (
            trusted_image_certificates is not None
            and not isinstance(trusted_image_certificates, base.Clear)
            and not list(trusted_image_certificates)
        ):
            raise exceptions.ValidationError(
                "{trusted_image_certificates} must not be empty (use CLEAR to remove them).",
                params=("trusted_image_certificates",),
            )
        self.check_metadata(metadata)

    def resize(
        self,
        server: base.Resource | str,
        flavor: base.Resource | str,
        disk_config: str | None = None,
    ) -> base.Result:
        info = {"flavorRef": str(base.getid(flavor))}
        if disk_config is not None:
            info["OS-DCF:diskConfig"] = disk_config
        return self._server_action(server, "resize", info)

    def confirm_resize(self, server: base.Resource | str) -> base.Result:
        return self._server_action(server, "confirmResize")

    def add_security_group(
        self, server: base.Resource | str, security_group: base.Resource | str
    ) -> base.Result:
        """Add a security group (a name or id, as Nova resolves it through
        Neutron, or a group resource: its id is sent) to every port of
        the server; a Result."""
        return self._server_action(
            server, "addSecurityGroup", {"name": base.getid(security_group)}
        )

    def remove_security_group(
        self, server: base.Resource | str, security_group: base.Resource | str
    ) -> base.Result:
        """Remove a security group (a name, id or group) from the server; a
        Result."""
        return self._server_action(
            server, "removeSecurityGroup", {"name": base.getid(security_group)}
        )

    def revert_resize(self, server: base.Resource | str) -> base.Result:
        return self._server_action(server, "revertResize")

    # -- moves (admin by default; see also client.server_migrations) -----

    def check_migrate(self, host: str | None = None) -> None:
        """The checks of :meth:`migrate`, before any lookup."""
        if host is not None:
            self._require(
                self.api_version, "2.56", what="a {host} for a cold migration", params=("host",)
            )

    def migrate(self, server: base.Resource | str, host: str | None = None) -> base.Result:
        """Cold-migrate (admin by default): to ``host`` (2.56) or where the
        scheduler says; the server ends in VERIFY_RESIZE, then
        :meth:`confirm_resize` or :meth:`revert_resize`. A Result."""
        self.check_migrate(host)
        return self._server_action(server, "migrate", None if host is None else {"host": host})

    def check_live_migrate(
        self,
        host: str | None = None,
        block_migration: bool | str = "auto",
        disk_over_commit: bool | None = None,
        force: bool | None = None,
    ) -> None:
        """The checks of :meth:`live_migrate`, before any lookup."""
        if block_migration not in ("auto", True, False):
            raise exceptions.ValidationError(
                "{block_migration} must be 'auto', True or False, not %r." % (block_migration,),
                params=("block_migration",),
            )
        if force and host is None:
            raise exceptions.ValidationError(
                "{force} needs a {host}: nova forces only to a given host.",
                params=("force", "host"),
            )
        version = self.api_version
        if disk_over_commit is not None:
            self._require(
                version, "2.1", "2.24", what="{disk_over_commit}", params=("disk_over_commit",)
            )
        if force is not None:
            self._require(version, "2.30", "2.67", what="{force}", params=("force",))

    def live_migrate(
        self,
        server: base.Resource | str,
        host: str | None = None,
        block_migration: bool | str = "auto",
        disk_over_commit: bool | None = None,
        force: bool | None = None,
    ) -> base.Result:
        """Live-migrate (admin by default) to ``host`` or where the
        scheduler says. ``block_migration``: ``"auto"`` (2.25; False
        before), True or False; ``disk_over_commit`` before 2.25 only;
        ``force`` (2.30-2.67) skips the scheduler's checks of ``host``.
        Follow it with :attr:`occli.client.Client.server_migrations`. A
        Result."""
        self.check_live_migrate(host, block_migration, disk_over_commit, force)
        info: dict[str, object] = {"host": host}
        if self.api_version >= "2.25":
            info["block_migration"] = block_migration
        else:
            info["block_migration"] = block_migration is True
            info["disk_over_commit"] = bool(disk_over_commit)
        if force is not None:
            info["force"] = bool(force)
        return self._server_action(server, "os-migrateLive", info)

    def check_evacuate(
        self,
        host: str | None = None,
        password: str | None = None,
        on_shared_storage: bool | None = None,
        force: bool | None = None,
    ) -> None:
        """The checks of :meth:`evacuate`, before any lookup."""
        if force and host is None:
            raise exceptions.ValidationError(
                "{force} needs a {host}: nova forces only to a given host.",
                params=("force", "host"),
            )
        if on_shared_storage and password is not None:
            raise exceptions.ValidationError(
                "{password} cannot be set on a server kept on shared storage.",
                params=("password", "on_shared_storage"),
            )
        version = self.api_version
        if on_shared_storage is not None:
            self._require(
                version, "2.1", "2.13", what="{on_shared_storage}", params=("on_shared_storage",)
            )
        if force is not None:
            self._require(version, "2.29", "2.67", what="{force}", params=("force",))

    def evacuate(
        self,
        server: base.Resource | str,
        host: str | None = None,
        password: str | None = None,
        on_shared_storage: bool | None = None,
        force: bool | None = None,
    ) -> base.Result:
        """Rebuild (admin by default) a server of a failed host (its
        compute service down or forced down) on ``host`` or where the
        scheduler says; ``password`` sets the admin password of the rebuilt
        server; ``on_shared_storage`` before 2.14 (False unless given);
        ``force`` (2.29-2.67). A Result; before 2.14 its body carries the
        ``adminPass``."""
        self.check_evacuate(host, password, on_shared_storage, force)
        info: dict[str, object] = {}
        if host is not None:
            info["host"] = host
        if password is not None:
            info["adminPass"] = password
        if self.api_version < "2.14":
            info["onSharedStorage"] = bool(on_shared_storage)
        if force is not None:
            info["force"] = bool(force)
        return self._server_action(server, "evacuate", info)

    def get_console_output(
        self, server: base.Resource | str, length: int | None = None
    ) -> base.StrWithMeta:
        """The console log text (the last ``length`` lines if given), a
        :class:`occli.base.StrWithMeta` (``request_ids``)."""
        info = {"length": int(length)} if length is not None else {}
        response = self._request(
            "POST",
            "/servers/%s/action" % base.getid(server),
            body={"os-getConsoleOutput": info},
        )
        return base.StrWithMeta(
            self._value(response, self._body(response), "output", str, ""),
            base._request_ids(response),
        )

    def create_image(
        self,
        server: base.Resource | str,
        name: str | None = None,
        metadata: Mapping[str, str] | None = None,
        image_name: str | None = None,
    ) -> base.StrWithMeta | None:
        """Snapshot the server; returns the new image id (a
        :class:`occli.base.StrWithMeta`, with ``request_ids``).
        ``image_name`` is novaclient's name of ``name``."""
        if image_name is not None:
            if name is not None:
                raise TypeError(
                    "create_image() got both 'name' and its novaclient alias 'image_name'"
                )
            name = image_name
        if name is None:
            raise TypeError("create_image() needs the image's name")
        return self._image_action(server, "createImage", {"name": name}, metadata)

    def _image_action(
        self,
        server: base.Resource | str,
        action: str,
        info: dict[str, object],
        metadata: Mapping[str, str] | None,
    ) -> base.StrWithMeta | None:
        """POST an action making an image (``createImage``,
        ``createBackup``); its id (the body's ``image_id``, else the end of
        the ``Location``) as a StrWithMeta, or None when neither says."""
        if metadata:
            info["metadata"] = dict(metadata)
        response = self._request(
            "POST", "/servers/%s/action" % base.getid(server), body={action: info}
        )
        image_id = self._value(response, self._body(response), "image_id", str, None)
        if not image_id:
            location = response.headers.get("Location") or ""
            image_id = urlparse(location).path.rstrip("/").rpartition("/")[2]
        if not image_id:
            return None
        return base.StrWithMeta(image_id, base._request_ids(response))

    # -- backups, consoles, passwords, soft delete (issue 11) -------------

    def backup(
        self,
        server: base.Resource | str,
        name: str,
        backup_type: str,
        rotation: int,
        metadata: Mapping[str, str] | None = None,
    ) -> base.StrWithMeta | None:
        """Back the server up (``createBackup``): an image of type
        ``backup_type`` (``daily``, ``weekly``, any word); Nova then keeps
        the newest ``rotation`` backups of that type and deletes the
        older ones (0: all of them). Returns the new image id (a
        :class:`occli.base.StrWithMeta`), or None when Nova does not say
        (before 2.45 with a rotation of 0)."""
        self.check_backup(name, backup_type, rotation)
        info: dict[str, object] = {
            "name": name,
            "backup_type": backup_type,
            "rotation": int(rotation),
        }
        return self._image_action(server, "createBackup", info, metadata)

    def check_backup(self, name: str, backup_type: str, rotation: int) -> None:
        """Check :meth:`backup`'s arguments as it does, sending nothing."""
        if not name:
            raise exceptions.ValidationError("{name} must not be empty.", params=("name",))
        if not isinstance(backup_type, str):
            raise exceptions.ValidationError(
                "{backup_type} must be text, e.g. daily.", params=("backup_type",)
            )
        try:
            rotation = int(rotation)
        except (TypeError, ValueError):
            rotation = -1
        if rotation < 0:
            raise exceptions.ValidationError(
                "{rotation} must be an integer, 0 or more.", params=("rotation",)
            )

    #: console types → (protocol, first microversion of remote-consoles
    #: with it, the legacy action before 2.6 or None)
    CONSOLE_TYPES = {
        "novnc": ("vnc", "2.6", "os-getVNCConsole"),
        "xvpvnc": ("vnc", "2.6", "os-getVNCConsole"),
        "spice-html5": ("spice", "2.6", "os-getSPICEConsole"),
        "serial": ("serial", "2.6", "os-getSerialConsole"),
        "rdp-html5": ("rdp", "2.6", "os-getRDPConsole"),
        "webmks": ("mks", "2.8", None),
    }

    def get_console_url(self, server: base.Resource | str, console_type: str) -> base.DictWithMeta:
        """The URL of a remote console (``novnc``, ``xvpvnc``,
        ``spice-html5``, ``serial``, ``rdp-html5``, ``webmks``): a
        :class:`occli.base.DictWithMeta` with ``type``, ``url`` and, from
        2.6, ``protocol``. Nova's ``remote-consoles`` API from 2.6, the
        legacy action before (``webmks`` needs 2.8)."""
        protocol, action = self.check_console_type(console_type)
        if self.api_version >= "2.6":
            response = self._request(
                "POST",
                "/servers/%s/remote-consoles" % base.getid(server),
                body={"remote_console": {"protocol": protocol, "type": console_type}},
            )
            key = "remote_console"
        else:
            response = self._request(
                "POST",
                "/servers/%s/action" % base.getid(server),
                body={action: {"type": console_type}},
            )
            key = "console"
        return base.DictWithMeta(
            self._value(response, self._body(response), key, dict, {}), base._request_ids(response)
        )

    def check_console_type(self, console_type: str) -> tuple[str, str | None]:
        """``(protocol, legacy action)`` of ``console_type``;
        ValidationError for an unknown type, UnsupportedVersion when the
        microversion lacks it."""
        if console_type not in self.CONSOLE_TYPES:
            raise exceptions.ValidationError(
                "{console_type} must be one of %s, not %r."
                % (", ".join(self.CONSOLE_TYPES), console_type),
                params=("console_type",),
            )
        protocol, start, action = self.CONSOLE_TYPES[console_type]
        if action is None:
            self._require(self.api_version, start, what="%s consoles" % console_type)
        return protocol, action

    def get_password(self, server: base.Resource | str) -> base.StrWithMeta:
        """The server's password as the guest posted it to the metadata
        service, encrypted with its key pair (``""`` if none): a
        :class:`occli.base.StrWithMeta`."""
        response = self._request("GET", "/servers/%s/os-server-password" % base.getid(server))
        return base.StrWithMeta(
            self._value(response, self._body(response), "password", str, ""),
            base._request_ids(response),
        )

    def clear_password(self, server: base.Resource | str) -> base.Result:
        """Forget the encrypted password in the metadata service (the
        guest's password is unchanged); a Result."""
        return self._delete("/servers/%s/os-server-password" % base.getid(server))

    def ips(self, server: base.Resource | str, network: str | None = None) -> base.DictWithMeta:
        """The server's addresses ``{network: [{"addr", "version"}]}``
        (only ``network``'s with one): a :class:`occli.base.DictWithMeta`."""
        url = "/servers/%s/ips" % base.getid(server)
        if network is not None:
            url += "/" + quote(str(network), safe="")
        response = self._request("GET", url)
        addresses = self._body(response)
        if network is None:
            addresses = self._value(response, addresses, "addresses", dict, addresses)
        return base.DictWithMeta(addresses, base._request_ids(response))

    def force_delete(self, server: base.Resource | str) -> base.Result:
        """Delete now (``forceDelete``), a soft-deleted server too; a Result."""
        return self._server_action(server, "forceDelete")

    def restore(self, server: base.Resource | str) -> base.Result:
        """Bring back a SOFT_DELETED server (clouds with a reclaim
        interval); a Result."""
        return self._server_action(server, "restore")

    def inject_network_info(self, server: base.Resource | str) -> base.Result:
        """Admin: have the hypervisor re-inject the network configuration;
        a Result."""
        return self._server_action(server, "injectNetworkInfo")


def _networks(nics: str | Iterable[Mapping[str, str]] | None) -> Networks | None:
    """``nics`` → the request's ``networks`` (None: not given)."""
    if nics is None:
        return None
    if isinstance(nics, str):
        if nics not in ("auto", "none"):
            raise exceptions.ValidationError(
                "{nics} must be 'auto', 'none' or a list of dicts, got %r." % nics,
                params=("nics",),
            )
        return nics
    networks = []
    for nic in nics:
        entry: dict[str, str] = {}
        for key, value in nic.items():
            api_key = _NIC_KEYS.get(key, key)
            if api_key not in ("uuid", "port", "fixed_ip", "tag"):
                raise exceptions.ValidationError(
                    "Unknown NIC key %r ({nics})." % key, params=("nics",)
                )
            if value:
                entry[api_key] = value
        networks.append(entry)
    return networks


def _legacy_bdm(mapping: Mapping[str, str]) -> list[dict[str, object]]:
    """``{dev: "id:type:size:delete"}`` → legacy ``block_device_mapping``.

    As novaclient: a type starting with ``snap`` means a snapshot id,
    anything else a volume id; empty fields are left out.
    """
    result = []
    for device, spec in mapping.items():
        parts = str(spec).split(":")
        entry: dict[str, object] = {"device_name": device}
        source_type = parts[1] if len(parts) > 1 else ""
        id_key = "snapshot_id" if source_type.startswith("snap") else "volume_id"
        entry[id_key] = parts[0]
        where = "Block device mapping %s=%s ({block_device_mapping})" % (device, spec)
        if len(parts) > 2 and parts[2]:
            try:
                entry["volume_size"] = int(parts[2])
            except ValueError:
                raise exceptions.ValidationError(
                    "%s: size %r is not an integer." % (where, parts[2]),
                    params=("block_device_mapping",),
                ) from None
        if len(parts) > 3 and parts[3]:
            entry["delete_on_termination"] = strutils.parse_bool(
                parts[3], where + ": delete", params=("block_device_mapping",)
            )
        result.append(entry)
    return result
