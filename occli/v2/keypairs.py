"""Nova keypairs."""

from occli import api_versions
from occli import base
from occli.v2 import compute


class Keypair(base.Resource):
    @property
    def id(self):
        return self._info.get("name")


class KeypairManager(compute.ComputeManager):
    resource_class = Keypair

    def list(self, user_id=None, limit=None, marker=None):
        params = {"marker": marker}
        if user_id is not None:
            self._require(self.api_version, "2.10", what="user_id")
            params["user_id"] = user_id
        return self._list("/os-keypairs", "keypairs", params=params,
                          limit=limit, item_key="keypair")

    def get(self, keypair):
        return self._get("/os-keypairs/%s" % base.getid(keypair), "keypair")

    def create(self, name, public_key=None, key_type=None):
        """Import ``public_key``, or let Nova generate a key pair.

        Nova stopped generating keys at 2.92; without a public key the request
        uses 2.91 when the negotiated version is higher (unless pinned).
        """
        body = {"name": name}
        version = api_versions.APIVersion(self.api_version)
        microversion = None
        if public_key is not None:
            body["public_key"] = public_key
        elif version >= api_versions.APIVersion("2.92"):
            if self.client.pinned_compute_version():
                self._require(version, api_versions.MIN_VERSION, "2.91",
                                     what="generating a key pair on the server")
            microversion = api_versions.APIVersion("2.91")
        if key_type is not None:
            self._require(microversion or version, "2.2", what="key type")
            body["type"] = key_type
        return self._create("/os-keypairs", {"keypair": body}, "keypair",
                            microversion=microversion)

    def delete(self, keypair):
        return self._delete("/os-keypairs/%s" % base.getid(keypair))
