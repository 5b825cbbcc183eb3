"""The manager of the imaginary ``hello`` service: greetings at ``/greetings``.

Announced under ``occli.managers`` as ``manager_mapping``: ``Client`` then
has ``client.hello``, talking to the catalog's ``hello`` endpoint through its
own keystoneauth1 Adapter (the manager's ``service_type``).
"""

from occli import base


class Greeting(base.Resource):
    """A greeting: ``{"id", "message", "language"}``."""


class HelloManager(base.Manager):
    resource_class = Greeting
    service_type = "hello"

    def list(self, language=None, limit=None, marker=None):
        """Yield greetings (all pages unless ``limit``)."""
        return self._list(
            "/greetings", "greetings", params={"language": language, "marker": marker}, limit=limit
        )

    def get(self, greeting):
        return self._get("/greetings/%s" % base.getid(greeting), "greeting")

    def create(self, message, language=None):
        body = {"message": message}
        if language:
            body["language"] = language
        return self._create("/greetings", {"greeting": body}, "greeting")

    def delete(self, greeting):
        return self._delete("/greetings/%s" % base.getid(greeting))


def manager_mapping():
    """``{client attribute: manager class}`` offered by this plugin."""
    return {"hello": HelloManager}
