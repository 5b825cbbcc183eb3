"""Client: one keystoneauth1 session, one Adapter per service, the managers.

Use it with an existing session (``Client(session=sess)``), a clouds.yaml
entry (``Client(cloud="mycloud")``) or keyword auth options
(``Client(auth_url=…, username=…, password=…, project_name=…)``), or
as novaclient's ``client.Client(version, username, password, project_id,
auth_url, session=…)``, whose ``version`` pins the compute microversion
(``"2.1"`` is 2.1, ``"2.latest"`` negotiates, an APIVersion too). The
built-in managers are attributes declared below (``client.servers``,
``client.aggregates``, …); an attribute that is none of them is looked up
among the managers of installed plugins (:mod:`occli.plugins`).
"""

import importlib
import logging
import re
from typing import TYPE_CHECKING
from typing import Any
from typing import Generic
from typing import TypeVar
from typing import overload

from occli import api_versions
from occli import base
from occli import exceptions

if TYPE_CHECKING:
    from keystoneauth1 import adapter as ks_adapter
    from keystoneauth1 import plugin as ks_plugin
    from keystoneauth1 import session as ks_session

    from occli import config
    from occli import transport
    from occli.v2.block_storage.admin import VolumeServiceManager
    from occli.v2.block_storage.attachments import AttachmentManager
    from occli.v2.block_storage.availability_zones import VolumeAvailabilityZoneManager
    from occli.v2.block_storage.backups import VolumeBackupManager
    from occli.v2.block_storage.groups import VolumeGroupManager
    from occli.v2.block_storage.groups import VolumeGroupSnapshotManager
    from occli.v2.block_storage.groups import VolumeGroupTypeManager
    from occli.v2.block_storage.messages import VolumeMessageManager
    from occli.v2.block_storage.transfers import VolumeTransferManager
    from occli.v2.block_storage.volume_quotas import VolumeQuotaManager
    from occli.v2.block_storage.volume_types import QoSSpecsManager
    from occli.v2.block_storage.volume_types import VolumeTypeManager
    from occli.v2.block_storage.volumes import VolumeManager
    from occli.v2.block_storage.volumes import VolumeSnapshotManager
    from occli.v2.compute.aggregates import AggregateManager
    from occli.v2.compute.availability_zones import AvailabilityZoneManager
    from occli.v2.compute.extensions import ExtensionManager
    from occli.v2.compute.flavor_access import FlavorAccessManager
    from occli.v2.compute.flavors import FlavorManager
    from occli.v2.compute.hypervisors import HypervisorManager
    from occli.v2.compute.instance_actions import InstanceActionManager
    from occli.v2.compute.interface_attachments import InterfaceAttachmentManager
    from occli.v2.compute.keypairs import KeypairManager
    from occli.v2.compute.limits import LimitsManager
    from occli.v2.compute.migrations import MigrationManager
    from occli.v2.compute.novaclient_compat import GlanceManager
    from occli.v2.compute.novaclient_compat import NeutronManager
    from occli.v2.compute.quotas import QuotaClassSetManager
    from occli.v2.compute.quotas import QuotaSetManager
    from occli.v2.compute.server_groups import ServerGroupManager
    from occli.v2.compute.server_migrations import ServerMigrationManager
    from occli.v2.compute.servers import ServerManager
    from occli.v2.compute.services import ServiceManager
    from occli.v2.compute.usage import InstanceUsageAuditLogManager
    from occli.v2.compute.usage import UsageManager
    from occli.v2.compute.volume_attachments import VolumeAttachmentManager
    from occli.v2.identity.app_credentials import AccessRuleManager
    from occli.v2.identity.app_credentials import ApplicationCredentialManager
    from occli.v2.identity.catalog import EndpointManager
    from occli.v2.identity.catalog import RegionManager
    from occli.v2.identity.catalog import ServiceManager as IdentityServiceManager
    from occli.v2.identity.credentials import CredentialManager
    from occli.v2.identity.credentials import Ec2CredentialManager
    from occli.v2.identity.credentials import TrustManager
    from occli.v2.identity.groups import GroupManager
    from occli.v2.identity.identity import DomainManager
    from occli.v2.identity.identity import ProjectManager
    from occli.v2.identity.identity import RoleAssignmentManager
    from occli.v2.identity.identity import RoleManager
    from occli.v2.identity.identity import TokenManager
    from occli.v2.identity.identity import UserManager
    from occli.v2.identity.implied_roles import InferenceRuleManager
    from occli.v2.image.images import ImageManager
    from occli.v2.image.members import ImageMemberManager
    from occli.v2.image.metadefs import MetadefNamespaceManager
    from occli.v2.image.metadefs import MetadefResourceTypeManager
    from occli.v2.image.metadefs import TaskManager
    from occli.v2.network.address_scopes import AddressScopeManager
    from occli.v2.network.availability_zones import NetworkAvailabilityZoneManager
    from occli.v2.network.extensions import NetworkExtensionManager
    from occli.v2.network.floating_ips import FloatingIPManager
    from occli.v2.network.network_quotas import NetworkQuotaManager
    from occli.v2.network.networks import NetworkManager
    from occli.v2.network.networks import SubnetManager
    from occli.v2.network.ports import PortManager
    from occli.v2.network.routers import RouterManager
    from occli.v2.network.security_groups import SecurityGroupManager
    from occli.v2.network.security_groups import SecurityGroupRuleManager
    from occli.v2.network.subnet_pools import SubnetPoolManager
    from occli.v2.object_store.object_store import ObjectStoreManager
    from occli.v2.orchestration.resource_types import BuildInfoManager
    from occli.v2.orchestration.resource_types import ResourceTypeManager
    from occli.v2.orchestration.resource_types import TemplateVersionManager
    from occli.v2.orchestration.software_configs import SoftwareConfigManager
    from occli.v2.orchestration.software_deployments import SoftwareDeploymentManager
    from occli.v2.orchestration.stack_events import StackEventManager
    from occli.v2.orchestration.stack_resources import StackResourceManager
    from occli.v2.orchestration.stacks import StackManager

LOG = logging.getLogger(__name__)

#: The block-storage microversion sent on every Cinder request
#: (``OpenStack-API-Version: volume 3.0``): volume API 3, OSC's default.
VOLUME_API_VERSION = "3.0"

_M = TypeVar("_M")


class BuiltinManager(Generic[_M]):
    """A built-in manager attribute: ``"module:Class"``, created on first use.

    Only the module of a manager in use is imported.
    """

    def __init__(self, path: str) -> None:
        self.path = path
        self.name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, client: None, owner: type | None = None) -> "BuiltinManager[_M]": ...

    @overload
    def __get__(self, client: "Client", owner: type | None = None) -> _M: ...

    def __get__(
        self, client: "Client | None", owner: type | None = None
    ) -> "_M | BuiltinManager[_M]":
        if client is None:
            return self
        module, _, cls = self.path.partition(":")
        manager: _M = getattr(importlib.import_module(module), cls)(client)
        vars(client)[self.name] = manager  # later reads skip the descriptor
        return manager


class Client:
    """Entry point of the SDK.

    ``max_response_size`` (bytes, or a size such as ``"64M"``; default
    ``$OCCLI_MAX_RESPONSE_SIZE``, else 64 MiB) bounds every answer's body,
    and ``command_timeout`` (seconds; default ``$OCCLI_COMMAND_TIMEOUT``,
    else none) every request this client sends, counted from its creation
    (see :mod:`occli.transport`). They bound the session the Client makes,
    not one it is given.
    """

    #: The resolved cloud settings; None when the Client was given a session.
    cloud_config: "config.CloudConfig | None"

    servers: "BuiltinManager[ServerManager]" = BuiltinManager(
        "occli.v2.compute.servers:ServerManager"
    )
    flavors: "BuiltinManager[FlavorManager]" = BuiltinManager(
        "occli.v2.compute.flavors:FlavorManager"
    )
    flavor_access: "BuiltinManager[FlavorAccessManager]" = BuiltinManager(
        "occli.v2.compute.flavor_access:FlavorAccessManager"
    )
    # novaclient's name lookups of images and networks
    glance: "BuiltinManager[GlanceManager]" = BuiltinManager(
        "occli.v2.compute.novaclient_compat:GlanceManager"
    )
    neutron: "BuiltinManager[NeutronManager]" = BuiltinManager(
        "occli.v2.compute.novaclient_compat:NeutronManager"
    )
    images: "BuiltinManager[ImageManager]" = BuiltinManager("occli.v2.image.images:ImageManager")
    image_members: "BuiltinManager[ImageMemberManager]" = BuiltinManager(
        "occli.v2.image.members:ImageMemberManager"
    )
    image_tasks: "BuiltinManager[TaskManager]" = BuiltinManager(
        "occli.v2.image.metadefs:TaskManager"
    )
    metadef_namespaces: "BuiltinManager[MetadefNamespaceManager]" = BuiltinManager(
        "occli.v2.image.metadefs:MetadefNamespaceManager"
    )
    metadef_resource_types: "BuiltinManager[MetadefResourceTypeManager]" = BuiltinManager(
        "occli.v2.image.metadefs:MetadefResourceTypeManager"
    )
    keypairs: "BuiltinManager[KeypairManager]" = BuiltinManager(
        "occli.v2.compute.keypairs:KeypairManager"
    )
    services: "BuiltinManager[ServiceManager]" = BuiltinManager(
        "occli.v2.compute.services:ServiceManager"
    )
    hypervisors: "BuiltinManager[HypervisorManager]" = BuiltinManager(
        "occli.v2.compute.hypervisors:HypervisorManager"
    )
    limits: "BuiltinManager[LimitsManager]" = BuiltinManager(
        "occli.v2.compute.limits:LimitsManager"
    )
    quotas: "BuiltinManager[QuotaSetManager]" = BuiltinManager(
        "occli.v2.compute.quotas:QuotaSetManager"
    )
    quota_classes: "BuiltinManager[QuotaClassSetManager]" = BuiltinManager(
        "occli.v2.compute.quotas:QuotaClassSetManager"
    )
    network_quotas: "BuiltinManager[NetworkQuotaManager]" = BuiltinManager(
        "occli.v2.network.network_quotas:NetworkQuotaManager"
    )
    volume_quotas: "BuiltinManager[VolumeQuotaManager]" = BuiltinManager(
        "occli.v2.block_storage.volume_quotas:VolumeQuotaManager"
    )
    network_availability_zones: "BuiltinManager[NetworkAvailabilityZoneManager]" = BuiltinManager(
        "occli.v2.network.availability_zones:NetworkAvailabilityZoneManager"
    )
    volume_availability_zones: "BuiltinManager[VolumeAvailabilityZoneManager]" = BuiltinManager(
        "occli.v2.block_storage.availability_zones:VolumeAvailabilityZoneManager"
    )
    usage: "BuiltinManager[UsageManager]" = BuiltinManager("occli.v2.compute.usage:UsageManager")
    usage_audit_logs: "BuiltinManager[InstanceUsageAuditLogManager]" = BuiltinManager(
        "occli.v2.compute.usage:InstanceUsageAuditLogManager"
    )
    availability_zones: "BuiltinManager[AvailabilityZoneManager]" = BuiltinManager(
        "occli.v2.compute.availability_zones:AvailabilityZoneManager"
    )
    extensions: "BuiltinManager[ExtensionManager]" = BuiltinManager(
        "occli.v2.compute.extensions:ExtensionManager"
    )
    network_extensions: "BuiltinManager[NetworkExtensionManager]" = BuiltinManager(
        "occli.v2.network.extensions:NetworkExtensionManager"
    )
    subnet_pools: "BuiltinManager[SubnetPoolManager]" = BuiltinManager(
        "occli.v2.network.subnet_pools:SubnetPoolManager"
    )
    address_scopes: "BuiltinManager[AddressScopeManager]" = BuiltinManager(
        "occli.v2.network.address_scopes:AddressScopeManager"
    )
    aggregates: "BuiltinManager[AggregateManager]" = BuiltinManager(
        "occli.v2.compute.aggregates:AggregateManager"
    )
    server_migrations: "BuiltinManager[ServerMigrationManager]" = BuiltinManager(
        "occli.v2.compute.server_migrations:ServerMigrationManager"
    )
    migrations: "BuiltinManager[MigrationManager]" = BuiltinManager(
        "occli.v2.compute.migrations:MigrationManager"
    )
    server_groups: "BuiltinManager[ServerGroupManager]" = BuiltinManager(
        "occli.v2.compute.server_groups:ServerGroupManager"
    )
    instance_action: "BuiltinManager[InstanceActionManager]" = BuiltinManager(
        "occli.v2.compute.instance_actions:InstanceActionManager"
    )
    software_configs: "BuiltinManager[SoftwareConfigManager]" = BuiltinManager(
        "occli.v2.orchestration.software_configs:SoftwareConfigManager"
    )
    software_deployments: "BuiltinManager[SoftwareDeploymentManager]" = BuiltinManager(
        "occli.v2.orchestration.software_deployments:SoftwareDeploymentManager"
    )
    stacks: "BuiltinManager[StackManager]" = BuiltinManager(
        "occli.v2.orchestration.stacks:StackManager"
    )
    stack_resources: "BuiltinManager[StackResourceManager]" = BuiltinManager(
        "occli.v2.orchestration.stack_resources:StackResourceManager"
    )
    stack_events: "BuiltinManager[StackEventManager]" = BuiltinManager(
        "occli.v2.orchestration.stack_events:StackEventManager"
    )
    resource_types: "BuiltinManager[ResourceTypeManager]" = BuiltinManager(
        "occli.v2.orchestration.resource_types:ResourceTypeManager"
    )
    template_versions: "BuiltinManager[TemplateVersionManager]" = BuiltinManager(
        "occli.v2.orchestration.resource_types:TemplateVersionManager"
    )
    heat_build_info: "BuiltinManager[BuildInfoManager]" = BuiltinManager(
        "occli.v2.orchestration.resource_types:BuildInfoManager"
    )
    object_store: "BuiltinManager[ObjectStoreManager]" = BuiltinManager(
        "occli.v2.object_store.object_store:ObjectStoreManager"
    )
    domains: "BuiltinManager[DomainManager]" = BuiltinManager(
        "occli.v2.identity.identity:DomainManager"
    )
    projects: "BuiltinManager[ProjectManager]" = BuiltinManager(
        "occli.v2.identity.identity:ProjectManager"
    )
    users: "BuiltinManager[UserManager]" = BuiltinManager("occli.v2.identity.identity:UserManager")
    roles: "BuiltinManager[RoleManager]" = BuiltinManager("occli.v2.identity.identity:RoleManager")
    role_assignments: "BuiltinManager[RoleAssignmentManager]" = BuiltinManager(
        "occli.v2.identity.identity:RoleAssignmentManager"
    )
    tokens: "BuiltinManager[TokenManager]" = BuiltinManager(
        "occli.v2.identity.identity:TokenManager"
    )
    groups: "BuiltinManager[GroupManager]" = BuiltinManager(
        "occli.v2.identity.groups:GroupManager"
    )
    inference_rules: "BuiltinManager[InferenceRuleManager]" = BuiltinManager(
        "occli.v2.identity.implied_roles:InferenceRuleManager"
    )
    identity_services: "BuiltinManager[IdentityServiceManager]" = BuiltinManager(
        "occli.v2.identity.catalog:ServiceManager"
    )
    endpoints: "BuiltinManager[EndpointManager]" = BuiltinManager(
        "occli.v2.identity.catalog:EndpointManager"
    )
    regions: "BuiltinManager[RegionManager]" = BuiltinManager(
        "occli.v2.identity.catalog:RegionManager"
    )
    application_credentials: "BuiltinManager[ApplicationCredentialManager]" = BuiltinManager(
        "occli.v2.identity.app_credentials:ApplicationCredentialManager"
    )
    access_rules: "BuiltinManager[AccessRuleManager]" = BuiltinManager(
        "occli.v2.identity.app_credentials:AccessRuleManager"
    )
    trusts: "BuiltinManager[TrustManager]" = BuiltinManager(
        "occli.v2.identity.credentials:TrustManager"
    )
    credentials: "BuiltinManager[CredentialManager]" = BuiltinManager(
        "occli.v2.identity.credentials:CredentialManager"
    )
    ec2_credentials: "BuiltinManager[Ec2CredentialManager]" = BuiltinManager(
        "occli.v2.identity.credentials:Ec2CredentialManager"
    )
    networks: "BuiltinManager[NetworkManager]" = BuiltinManager(
        "occli.v2.network.networks:NetworkManager"
    )
    subnets: "BuiltinManager[SubnetManager]" = BuiltinManager(
        "occli.v2.network.networks:SubnetManager"
    )
    ports: "BuiltinManager[PortManager]" = BuiltinManager("occli.v2.network.ports:PortManager")
    routers: "BuiltinManager[RouterManager]" = BuiltinManager(
        "occli.v2.network.routers:RouterManager"
    )
    security_groups: "BuiltinManager[SecurityGroupManager]" = BuiltinManager(
        "occli.v2.network.security_groups:SecurityGroupManager"
    )
    security_group_rules: "BuiltinManager[SecurityGroupRuleManager]" = BuiltinManager(
        "occli.v2.network.security_groups:SecurityGroupRuleManager"
    )
    floating_ips: "BuiltinManager[FloatingIPManager]" = BuiltinManager(
        "occli.v2.network.floating_ips:FloatingIPManager"
    )
    volumes: "BuiltinManager[VolumeManager]" = BuiltinManager(
        "occli.v2.block_storage.volumes:VolumeManager"
    )
    volume_snapshots: "BuiltinManager[VolumeSnapshotManager]" = BuiltinManager(
        "occli.v2.block_storage.volumes:VolumeSnapshotManager"
    )
    volume_transfers: "BuiltinManager[VolumeTransferManager]" = BuiltinManager(
        "occli.v2.block_storage.transfers:VolumeTransferManager"
    )
    volume_backups: "BuiltinManager[VolumeBackupManager]" = BuiltinManager(
        "occli.v2.block_storage.backups:VolumeBackupManager"
    )
    volume_messages: "BuiltinManager[VolumeMessageManager]" = BuiltinManager(
        "occli.v2.block_storage.messages:VolumeMessageManager"
    )
    volume_services: "BuiltinManager[VolumeServiceManager]" = BuiltinManager(
        "occli.v2.block_storage.admin:VolumeServiceManager"
    )
    volume_group_types: "BuiltinManager[VolumeGroupTypeManager]" = BuiltinManager(
        "occli.v2.block_storage.groups:VolumeGroupTypeManager"
    )
    volume_groups: "BuiltinManager[VolumeGroupManager]" = BuiltinManager(
        "occli.v2.block_storage.groups:VolumeGroupManager"
    )
    volume_group_snapshots: "BuiltinManager[VolumeGroupSnapshotManager]" = BuiltinManager(
        "occli.v2.block_storage.groups:VolumeGroupSnapshotManager"
    )
    volume_types: "BuiltinManager[VolumeTypeManager]" = BuiltinManager(
        "occli.v2.block_storage.volume_types:VolumeTypeManager"
    )
    volume_qos: "BuiltinManager[QoSSpecsManager]" = BuiltinManager(
        "occli.v2.block_storage.volume_types:QoSSpecsManager"
    )
    volume_attachments: "BuiltinManager[VolumeAttachmentManager]" = BuiltinManager(
        "occli.v2.compute.volume_attachments:VolumeAttachmentManager"
    )
    # Cinder's own attachment records (/attachments, 3.27+); the compute side
    # of an attachment is volume_attachments
    block_storage_attachments: "BuiltinManager[AttachmentManager]" = BuiltinManager(
        "occli.v2.block_storage.attachments:AttachmentManager"
    )
    interface_attachments: "BuiltinManager[InterfaceAttachmentManager]" = BuiltinManager(
        "occli.v2.compute.interface_attachments:InterfaceAttachmentManager"
    )

    @classmethod
    def builtin_managers(cls) -> dict[str, str]:
        """``{attribute: "module:Class"}`` of the built-in managers."""
        return {
            name: attr.path for name, attr in vars(cls).items() if isinstance(attr, BuiltinManager)
        }

    def __init__(
        self,
        version: "str | api_versions.APIVersion | ks_session.Session | None" = None,
        username: str | None = None,
        password: str | None = None,
        project_id: str | None = None,
        auth_url: str | None = None,
        *,
        session: "ks_session.Session | None" = None,
        cloud: str | None = None,
        region_name: str | None = None,
        interface: str | None = None,
        compute_api_version: str | api_versions.APIVersion | None = None,
        api_timeout: float | None = None,
        use_cache: bool = False,
        collect_timing: bool = False,
        retries: int = 2,
        max_response_size: int | str | None = None,
        command_timeout: float | None = None,
        **auth: object,
    ) -> None:
        # novaclient's positional form: Client(version, username, password,
        # project_id, auth_url, session=…); a session first is occli's own
        if version is not None and not isinstance(version, (str, api_versions.APIVersion)):
            if session is not None:
                raise TypeError("Client() got a session twice")
            session, version = version, None
        if version is not None:
            if compute_api_version is not None:
                raise TypeError("Client() got both a version and compute_api_version")
            compute_api_version = _novaclient_version(version)
        given = {
            "username": username,
            "password": password,
            "project_id": project_id,
            "auth_url": auth_url,
        }
        auth.update((k, v) for k, v in given.items() if v is not None)
        endpoint_type = auth.pop("endpoint_type", None)  # novaclient's name of interface
        if interface is None and isinstance(endpoint_type, str):
            interface = endpoint_type.removesuffix("URL")
        self.retries = retries
        self.max_response_size = max_response_size
        self.command_timeout = command_timeout
        self._adapters: dict[str, ks_adapter.Adapter] = {}
        self._roots: dict[tuple[str, str], str] = {}
        self._versions: dict[str, api_versions.APIVersion] = {}
        self._managers: dict[str, Any] = {}
        self._cache_key: str | None = None
        self._cache_extra: dict[str, Any] = {}
        self._cache_saved: tuple[object, dict[str, Any]] | None = None
        self._token_checked = False
        self.cloud_config = None
        if session is None:
            from occli import config

            overrides = dict(
                auth,
                region_name=region_name,
                interface=interface,
                compute_api_version=compute_api_version,
                api_timeout=api_timeout,
            )
            self.cloud_config = config.resolve(cloud=cloud, overrides=overrides)
            cc = self.cloud_config
            region_name = cc.region_name
            interface = cc.interface
            compute_api_version = cc.compute_api_version
            session = self._make_session(cc, use_cache, collect_timing)
        self.session = session
        self.region_name = region_name
        self.interface = interface or "public"
        self.requested_compute_version = str(compute_api_version) if compute_api_version else None
        if self.requested_compute_version:
            # fail early on a malformed version string
            api_versions.APIVersion(self.requested_compute_version)

    def _make_session(
        self, cc: "config.CloudConfig", use_cache: bool, collect_timing: bool
    ) -> "transport.Session":
        from occli import transport
        from occli.version import __version__

        bounded = transport.BoundedTransport(
            transport.max_response_size(self.max_response_size),
            transport.command_timeout(self.command_timeout),
        )

        plugin: ks_plugin.BaseAuthPlugin | None = None
        extra: dict[str, Any] | None = None
        if use_cache:
            from occli import cached_auth
            from occli import token_cache

            self._cache_key = cc.identity_key()
            if cc.auth_type in cached_auth.AUTH_TYPES:
                # the configured plugin is built only once the cached token
                # is not enough (building it imports much of keystoneauth1)
                found = token_cache.cached_auth(self._cache_key, cc.auth_plugin)
                if found is not None:
                    plugin, extra = found
            else:
                plugin = cc.auth_plugin()
                extra = token_cache.restore(plugin, self._cache_key)
            if plugin is not None and extra is not None:
                self._cache_extra = extra
                self._cache_saved = (plugin.get_auth_state(), dict(extra))
        if plugin is None:
            plugin = cc.auth_plugin()
        return transport.Session(
            auth=plugin,
            session=bounded,
            verify=cc.verify,
            cert=cc.cert,
            timeout=cc.api_timeout,
            collect_timing=collect_timing,
            app_name="occli",
            app_version=__version__,
        )

    def save_cache(self) -> None:
        """Store the token (and negotiated versions) for the next invocation."""
        if not self._cache_key:
            return
        from occli import token_cache

        auth = self.session.auth
        if auth is None or getattr(auth, "auth_ref", None) is None:
            return
        if self._cache_saved == (auth.get_auth_state(), self._cache_extra):
            return  # the same token and endpoint data: nothing to write
        token_cache.save(auth, self._cache_key, extra=self._cache_extra)

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc: object) -> None:
        """As novaclient's: leaving a ``with`` block closes the connections
        of the session this Client made (one it was given is the caller's)."""
        if self.cloud_config is not None:
            self.session.session.close()

    def forget_token(self) -> None:
        """Drop the token in use here and from the token cache (it was
        revoked): the next request, or invocation, authenticates again."""
        auth = self.session.auth
        if auth is not None:
            auth.invalidate()
        if self._cache_key:
            from occli import token_cache

            token_cache.invalidate(self._cache_key)

    def checked_token(self) -> Any:
        """The token in use (keystoneauth1's AccessInfo), validated with
        Keystone first (one HEAD, once) if it came from the token cache.

        A cached token stays valid for its name only: after the user is
        deleted and recreated under the same name and password it still
        names the deleted user's id. ``token issue`` hands tokens to
        scripts, and URLs built from the token's user or project id would
        be resent unchanged after a re-authentication, so both take the
        token from here; a refused one is forgotten and replaced."""
        session = self.session
        auth: Any = session.auth  # an identity plugin: it has get_access
        if (
            not self._token_checked
            and auth is not None
            and self._cache_saved is not None
            and auth.get_auth_state() == self._cache_saved[0]
        ):
            self._token_checked = True
            if not self.tokens.validate(auth.get_access(session).auth_token):
                self.forget_token()
        return auth.get_access(session) if auth is not None else None

    def service_root(self, service_type: str, version: str) -> str:
        """The catalog endpoint of ``service_type`` ending in ``/<version>``
        (appended when the catalog's URL names no version, as Keystone's
        and Neutron's often do; Cinder's may end in ``/v3/<project>``),
        without a trailing slash; "" when the catalog has none. Found once
        per client."""
        key = (service_type, version)
        if key not in self._roots:
            from keystoneauth1 import exceptions as ks_exceptions

            try:
                endpoint = (self.adapter(service_type).get_endpoint() or "").rstrip("/")
            except ks_exceptions.EndpointNotFound:
                endpoint = ""
            named = r"/%s(\.\d+)?(/[^/]+)?$" % re.escape(version)
            if endpoint and not re.search(named, endpoint):
                endpoint += "/" + version
            self._roots[key] = endpoint
        return self._roots[key]

    def adapter(self, service_type: str) -> "ks_adapter.Adapter":
        """The keystoneauth1 Adapter for ``service_type``, configured once.

        It finds the endpoint in the catalog, retries connection failures
        and 502/503/504 ``retries`` times (with keystoneauth1's backoff),
        sends the service's microversion (:meth:`api_version`) on every
        request and leaves HTTP errors to the managers.
        """
        adapter = self._adapters.get(service_type)
        if adapter is None:
            from keystoneauth1 import adapter as ks_adapter

            version = self.api_version(service_type)
            adapter = ks_adapter.Adapter(
                self.session,
                logger=logging.getLogger("occli.http"),
                connect_retries=self.retries,
                status_code_retries=self.retries,
                retriable_status_codes=base.RETRIABLE_STATUSES,
                default_microversion=None if version is None else str(version),
                raise_exc=False,
                **self._endpoint_filter(service_type),
            )
            self._adapters[service_type] = adapter
        return adapter

    def _endpoint_filter(self, service_type: str) -> dict[str, Any]:
        """Where the Adapter finds ``service_type``: the catalog, unless the
        cloud's settings override its endpoint (clouds.yaml's
        ``<service>_endpoint_override``, or ``OS_<SERVICE>_ENDPOINT_OVERRIDE``
        without a named cloud, as openstacksdk reads them)."""
        found = {
            "service_type": service_type,
            "interface": self.interface,
            "region_name": self.region_name,
        }
        if self.cloud_config is not None:
            key = service_type.replace("-", "_") + "_endpoint_override"
            override = self.cloud_config.get(key)
            if override:
                found["endpoint_override"] = override
        return found

    def api_version(self, service_type: str) -> api_versions.APIVersion | None:
        """The microversion used for ``service_type`` (None if unversioned).

        For compute: the user's pinned version, else the highest one both
        occli and the cloud support, discovered once and cached with the
        token. For block-storage: :data:`VOLUME_API_VERSION`.
        """
        if service_type == "block-storage":
            return api_versions.APIVersion(VOLUME_API_VERSION)
        if service_type != "compute":
            return None
        if "compute" not in self._versions:
            self._versions["compute"] = self._negotiate_compute()
        return self._versions["compute"]

    def pinned_compute_version(self) -> api_versions.APIVersion | None:
        """The compute version the user pinned, or None (negotiated/latest)."""
        requested = self.requested_compute_version
        if requested and not api_versions.APIVersion(requested).is_latest:
            return api_versions.APIVersion(requested)
        return None

    def _negotiate_compute(self) -> api_versions.APIVersion:
        requested = self.requested_compute_version
        if self.pinned_compute_version():
            # a pinned version needs no discovery: the server answers 406
            # when it is out of its range
            return api_versions.negotiate(
                requested, api_versions.MIN_VERSION, api_versions.MAX_VERSION
            )
        key = "range:" + self._endpoint("compute")
        server_range = _version_range(self._cache_extra.get(key))
        if server_range is None:
            self._cache_extra.pop(key, None)  # unusable: replaced or dropped
            server_min, server_max = self._discover_compute()
            server_range = _version_range([server_min, server_max])
            if server_range is None:  # a legacy endpoint without microversions
                return api_versions.negotiate(requested, server_min, server_max)
            self._cache_extra[key] = list(server_range)
        return api_versions.negotiate(requested, *server_range)

    def _discover_compute(self) -> tuple[str | None, str | None]:
        """``(min, max)`` microversions from the compute version document.

        Tried ``retries`` more times (with backoff) when no document could be
        read (an error status, a dropped connection, a body that is not a
        version document); a failed discovery is never cached.
        """
        import time

        endpoint = self._endpoint_filter("compute")
        catalog_url = None
        for attempt in range(self.retries + 1):
            data = self.session.get_endpoint_data(**endpoint)
            if data is None:
                raise exceptions.ClientException(
                    "No compute endpoint found in the service catalog."
                )
            catalog_url = data.catalog_url
            if data.service_url is not None:  # a version document was read
                return _text(data.min_microversion), _text(data.max_microversion)
            if attempt < self.retries:
                time.sleep(0.5 * 2**attempt)
        raise exceptions.ClientException(
            "Could not read the compute API versions at %s (see --debug)." % catalog_url
        )

    def _endpoint(self, service_type: str) -> str:
        return self.session.get_endpoint(**self._endpoint_filter(service_type)) or ""

    def manager(self, name: str) -> Any:
        """The manager ``name``: built-in, or of a plugin."""
        if isinstance(getattr(type(self), name, None), BuiltinManager):
            return getattr(self, name)
        manager = self._managers.get(name)
        if manager is None:
            from occli import plugins

            cls = plugins.manager_class(name)
            if cls is None:
                raise AttributeError("Client has no manager %r" % name)
            manager = self._managers[name] = cls(self)
        return manager

    def __getattr__(self, name: str) -> Any:
        # only for names that are no attribute: a plugin's manager
        if name.startswith("_"):
            raise AttributeError(name)
        return self.manager(name)

    def __dir__(self) -> list[str]:
        from occli import plugins

        return sorted(set(super().__dir__()) | set(plugins.manager_names()))


def _novaclient_version(version: "str | api_versions.APIVersion") -> str:
    """The compute microversion novaclient's ``version`` pins: ``"2.x"``
    or an APIVersion itself, ``"2.latest"`` negotiated; ``"2"`` and
    ``"2.0"`` (the v2 API) are 2.1, the oldest occli speaks."""
    text = str(version).strip()
    return api_versions.MIN_VERSION if text in ("2", "2.0") else text


def _version_range(value: Any) -> tuple[str, str] | None:
    """``(min, max)`` from a cached ``[min, max]``, or None if unusable."""
    try:
        low, high = (api_versions.APIVersion(v) for v in value)
    except (TypeError, ValueError, exceptions.UnsupportedVersion):
        return None
    if high.is_latest or low > high:
        return None
    return str(low), str(high)


def _text(version: tuple[int | float, ...] | str | None) -> str | None:
    if not version:
        return None
    if isinstance(version, tuple):
        return "%d.%d" % version[:2]
    return str(version)
