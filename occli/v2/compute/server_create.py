"""Server creation (``POST /servers``): the create request's checks and
body, and the block device mappings it takes. Mixed into
:class:`occli.v2.compute.servers.ServerManager` (``client.servers.create(…)``);
its public names are importable from :mod:`occli.v2.compute.servers` too.
"""

import base64
from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Mapping
from typing import IO
from typing import Any
from typing import TypeAlias

from occli import api_versions
from occli import base
from occli import exceptions
from occli import strutils
from occli.v2.compute import base as compute

# Nova's defaults for injected (personality) files and its schema limits.
MAX_FILES = 5

MAX_FILE_BYTES = 10 * 1024

MAX_FILE_PATH = 255

MAX_USER_DATA = 65535

PERSONALITY_MAX_VERSION = "2.56"

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


def b64encode(data: Contents) -> str:
    """``data`` base64-encoded, as Nova takes user data and files."""
    return base64.b64encode(_to_bytes(data)).decode("ascii")


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


class CreateMixin(compute.ComputeManager):
    """The methods; ``self`` is a ServerManager (its ``check_metadata``
    checks the metadata)."""

    check_metadata: Callable[[Mapping[str, str] | None], None]

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

    # create arguments → (first microversion, what the error calls them)
    CREATE_VERSIONS = {
        "description": ("2.19", "a server description"),
        "tags": ("2.52", "server tags on create"),
        "trusted_image_certificates": ("2.63", "trusted image certificates"),
        "host": ("2.74", "a requested host"),
        "hypervisor_hostname": ("2.74", "a requested hypervisor hostname"),
        "hostname": ("2.90", "a server hostname"),
    }

    def create(
        self,
        name: str,
        image: base.Resource | str | None = None,
        flavor: base.Resource | str | None = None,
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
        return self._resource(self._member(response, data, "server"), response, loaded=False)

    def check_create(self, **options: Any) -> api_versions.APIVersion:
        """Check :meth:`create`'s ``options`` as it does, creating nothing;
        returns the microversion the request would use.

        Nothing is sent but the version discovery (once per client, and
        none when a version is pinned). File objects in ``options`` are
        read.
        """
        options = self._create_options((), options, "check_create")
        return self._create_request(None, None, None, **options)[1]

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
        self.check_metadata(metadata)
        _check_counts(min_count, max_count)
        if user_data is not None:
            user_data = b64encode(user_data)
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
                {"path": path, "contents": b64encode(data)} for path, data in personality.items()
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
