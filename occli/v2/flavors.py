"""Nova flavors."""

from occli import base
from occli.v2 import compute


class Flavor(base.Resource):
    pass


class FlavorManager(compute.ComputeManager):
    resource_class = Flavor

    def list(self, detailed=True, limit=None, marker=None, is_public=None):
        """Yield flavors (all pages unless ``limit``)."""
        url = "/flavors/detail" if detailed else "/flavors"
        params = {"marker": marker}
        if is_public is not None:
            params["is_public"] = "None" if is_public == "all" else is_public
        return self._list(url, "flavors", params=params, limit=limit)

    def get(self, flavor):
        return self._get("/flavors/%s" % base.getid(flavor), "flavor")
