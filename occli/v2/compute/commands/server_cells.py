"""The cells of the server commands' output: a server's flavor, image and
named lists (``server show``, ``server create``, ``server rebuild``), and
the servers of a reservation (``server create --return-reservation-id``).
Each shows a line for people and the value, links left out, for
machines (``-f json``)."""

from cliff import columns as cliff_columns

from occli import columns

BOOTED_FROM_VOLUME = "N/A (booted from volume)"


class FlavorColumn(cliff_columns.FormattableColumn):
    """The embedded flavor (2.47+) as OSC's ``DictColumn`` of openstacksdk's
    Flavor (``disk='1', …, vcpus='1'``), or the flavor id (< 2.47)."""

    def human_readable(self):
        flavor = self._value
        if not isinstance(flavor, dict):
            return "" if flavor is None else str(flavor)
        if "original_name" not in flavor:
            return str(flavor.get("id", ""))
        return columns.format_dict(osc_flavor(flavor))

    def machine_readable(self):
        flavor = self._value
        if isinstance(flavor, dict) and "original_name" in flavor:
            return osc_flavor(flavor)
        return _without_links(flavor)


def osc_flavor(flavor):
    """A server's embedded flavor (2.47+) as OSC shows it in JSON: the
    fields of openstacksdk's ``Flavor`` (compute/v2/flavor.py) it is
    loaded into, the name as its id."""
    name = flavor["original_name"]
    return {
        "name": name,
        "original_name": name,
        "description": flavor.get("description"),
        "disk": flavor.get("disk"),
        "is_public": flavor.get("is_public", True),
        "ram": flavor.get("ram"),
        "vcpus": flavor.get("vcpus"),
        "swap": flavor.get("swap"),
        "ephemeral": flavor.get("ephemeral"),
        "is_disabled": flavor.get("is_disabled"),
        "rxtx_factor": flavor.get("rxtx_factor"),
        "extra_specs": flavor.get("extra_specs", {}),
        "id": name,
        "location": None,
    }


class PowerStateColumn(cliff_columns.FormattableColumn):
    """Nova's power state: its name for people, the number in JSON, as
    OSC's ``PowerStateColumn`` (openstackclient/compute/v2/server.py)."""

    def human_readable(self):
        return POWER_STATES.get(self._value, "N/A")

    def machine_readable(self):
        return self._value


#: Nova's power states by number (nova/compute/power_state.py)
POWER_STATES = {
    0: "NOSTATE",
    1: "Running",
    3: "Paused",
    4: "Shutdown",
    6: "Crashed",
    7: "Suspended",
}


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
        if "name" in image:
            # an unnamed image's too: OSC's "None (id)"
            return "%s (%s)" % (image["name"], image.get("id"))
        return str(image.get("id", ""))

    def machine_readable(self):
        # the same text in JSON, as OSC's server show
        return self.human_readable() or None


class HostColumn(cliff_columns.FormattableColumn):
    """``server list --long``'s Host: empty in a table when Nova hides it,
    None for machines (OSC's ``HostColumn``)."""

    def human_readable(self):
        return "" if self._value is None else self._value


class NamesColumn(cliff_columns.FormattableColumn):
    """``[{"name": "default"}]`` → ``name='default'`` lines (OSC's
    ``ListDictColumn``)."""

    def human_readable(self):
        return "\n".join(
            columns.format_dict(i) if isinstance(i, dict) else str(i) for i in self._value or ()
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
