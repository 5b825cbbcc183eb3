"""Nova hypervisors."""

from occli import base
from occli.v2 import compute


class Hypervisor(base.Resource):
    pass


class HypervisorManager(compute.ComputeManager):
    resource_class = Hypervisor

    def list(self, detailed=False, limit=None, marker=None):
        url = "/os-hypervisors/detail" if detailed else "/os-hypervisors"
        return self._list(url, "hypervisors", params={"marker": marker},
                          limit=limit)

    def get(self, hypervisor):
        return self._get("/os-hypervisors/%s" % base.getid(hypervisor),
                         "hypervisor")
