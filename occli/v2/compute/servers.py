"""Nova servers: the Server resource and ServerManager.

Every manager method accepts a :class:`Server` or a server id. Images and
flavors are passed as ids or resources (names are resolved by the caller,
e.g. with ``client.images.find_resource``). Server creation always POSTs
``/servers`` (``/os-volumes_boot`` is gone from 2.103).
"""

import builtins
import re
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Iterator
from collections.abc import Mapping
from typing import Any
from urllib.parse import quote
from urllib.parse import urlparse

from occli import base
from occli import exceptions
from occli import strutils
from occli.v2.compute import base as compute
from occli.v2.compute import novaclient_compat
from occli.v2.compute import server_create
from occli.v2.compute import server_lifecycle
from occli.v2.compute import server_moves

# Nova's schema limit of metadata keys and values.
MAX_META_LENGTH = 255
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


#: :data:`occli.base.CLEAR`, importable from here as before.
CLEAR = base.CLEAR

# The names of server creation, importable from here as before.
MAX_FILES = server_create.MAX_FILES
MAX_FILE_BYTES = server_create.MAX_FILE_BYTES
MAX_FILE_PATH = server_create.MAX_FILE_PATH
MAX_USER_DATA = server_create.MAX_USER_DATA
PERSONALITY_MAX_VERSION = server_create.PERSONALITY_MAX_VERSION
Contents = server_create.Contents
Networks = server_create.Networks
boot_volume_bdm = server_create.boot_volume_bdm
boot_source_bdm = server_create.boot_source_bdm
swap_bdm = server_create.swap_bdm
ephemeral_bdm = server_create.ephemeral_bdm


class Server(base.Resource):
    """A Nova server; action methods delegate to the manager."""

    @property
    def task_state(self) -> str | None:
        return self._info.get("OS-EXT-STS:task_state")

    @property
    def networks(self) -> dict[str, builtins.list[str]]:
        """novaclient's ``{network: [address, …]}``, by network name."""
        try:
            addresses = self.addresses
        except AttributeError:
            return {}
        return {net: [a["addr"] for a in addresses[net]] for net in sorted(addresses)}


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
    "interface_list",
    "interface_attach",
    "interface_detach",
    "get_vnc_console",
    "get_spice_console",
    "get_rdp_console",
    "get_serial_console",
    "get_mks_console",
):
    setattr(Server, _name, _delegate(_name))
del _name


#: :func:`occli.strutils.is_uuid`, by the name its callers know
is_uuid = strutils.is_uuid


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


class ServerManager(
    server_create.CreateMixin,
    server_moves.MovesMixin,
    server_lifecycle.LifecycleMixin,
    novaclient_compat.ServerMixin,
    compute.ComputeManager,
):
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
        user_data: server_create.Contents | base.Clear | None = None,
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
            else server_create.b64encode(user_data),
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
        user_data: server_create.Contents | base.Clear | None = None,
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
