"""Nova compute services (``os-services``)."""

from occli import base


class Service(base.Resource):
    pass


class ServiceManager(base.Manager):
    resource_class = Service

    def list(self, host=None, binary=None):
        return self._list("/os-services", "services",
                          params={"host": host, "binary": binary})
