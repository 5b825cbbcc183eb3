"""Nova absolute limits (``GET /limits``)."""

from occli import base
from occli.v2 import compute


class Limits(base.Resource):
    pass


class LimitsManager(compute.ComputeManager):
    resource_class = Limits

    def get(self, project_id=None, reserved=False):
        """The project's limits and usage; ``project_id`` needs an admin."""
        params = {"tenant_id": project_id, "reserved": 1 if reserved else None}
        return self._get("/limits", "limits",
                         params={k: v for k, v in params.items() if v})
