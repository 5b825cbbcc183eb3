"""The cells of the server commands' output: a server's flavor, image and
named lists (``server show``, ``server create``, ``server rebuild``), and
the servers of a reservation (``server create --return-reservation-id``).
Each shows a line for people and the value, links left out, for
machines (``-f json``)."""

from cliff import columns as cliff_columns

from occli import columns

BOOTED_FROM_VOLUME = "N/A (booted from volume)"


class FlavorColumn(cliff_columns.FormattableColumn):
    """``m1.tiny (vcpus=1, ram=512, disk=1, …)`` or the flavor id (< 2.47)."""

    def human_readable(self):
        flavor = self._value
        if not isinstance(flavor, dict):
            return "" if flavor is None else str(flavor)
        if "original_name" not in flavor:
            return str(flavor.get("id", ""))
        sizes = ", ".join(
            "%s=%s" % (k, flavor[k])
            for k in ("vcpus", "ram", "disk", "ephemeral", "swap")
            if k in flavor
        )
        text = "%s (%s)" % (flavor["original_name"], sizes)
        if flavor.get("extra_specs"):
            text += "\n" + columns.DictColumn(flavor["extra_specs"]).human_readable()
        return text

    def machine_readable(self):
        return _without_links(self._value)


class ImageColumn(cliff_columns.FormattableColumn):
    """``cirros (70a5…)``, the id, or "booted from volume" (``""``)."""

    def human_readable(self):
        image = self._value
        if image == "":
            return BOOTED_FROM_VOLUME
        if image is None:
            return ""
        if not isinstance(image, dict):
            return str(image)
        if image.get("name"):
            return "%s (%s)" % (image["name"], image.get("id"))
        return str(image.get("id", ""))

    def machine_readable(self):
        return _without_links(self._value) or None


class NamesColumn(cliff_columns.FormattableColumn):
    """``[{"name": "default"}]`` → ``default``."""

    def human_readable(self):
        return ", ".join(
            str(i.get("name") or i.get("id", i)) if isinstance(i, dict) else str(i)
            for i in self._value or ()
        )

    def machine_readable(self):
        return list(self._value or ())


class ServersColumn(cliff_columns.FormattableColumn):
    """Servers as ``name (id) STATUS`` lines; id/name/status in JSON."""

    def human_readable(self):
        return "\n".join(
            "%s (%s) %s" % (s["name"], s["id"], s["status"]) for s in self._value or ()
        )

    def machine_readable(self):
        return list(self._value or ())


def _without_links(value):
    if isinstance(value, dict):
        return {k: v for k, v in value.items() if k != "links"}
    return value
