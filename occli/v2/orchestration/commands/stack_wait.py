"""``--wait`` of the stack commands: the events streamed to stderr as
heatclient's ``poll_for_events`` prints them (``heatclient/common/
event_utils.py``, ``utils.event_log_formatter``), and a failure reported
as one line naming the deepest failed resource and its reason."""

import time

from occli import exceptions
from occli.v2.orchestration import stack_events

#: The line of one event (heatclient's ``event_log_formatter``).
LOG_FORMAT = "%(time)s %(id)s [%(name)s]: %(status)s  %(reason)s"


class EventLog:
    """Log lines of events, nested resources named by their path
    (``group.0.server``) as heatclient's ``EventLogContext`` names them."""

    def __init__(self):
        # stack id (or a nested stack's physical id) -> (parent stack id, resource name)
        self.parents = {}

    def name(self, event):
        info = event.to_dict() if hasattr(event, "to_dict") else dict(event)
        name = info.get("resource_name") or info.get("logical_resource_id") or ""
        stack_id = info.get("stack_id")
        if stack_id is None:
            for link in info.get("links") or ():
                if link.get("rel") == "stack" and link.get("href"):
                    stack_id = str(link["href"]).rstrip("/").rsplit("/", 1)[-1]
        if not stack_id:
            return name
        physical = info.get("physical_resource_id")
        own = stack_id == physical
        if own:
            self.parents[stack_id] = (stack_id, name)
        elif physical and info.get("resource_status") == "CREATE_IN_PROGRESS":
            self.parents[physical] = (stack_id, name)  # may be a nested stack
        path = [name] if name and not own else []
        self._prepend(path, stack_id, set())
        return ".".join(path)

    def _prepend(self, path, stack_id, seen):
        if stack_id not in self.parents or stack_id in seen:
            return
        seen.add(stack_id)
        _, name = self.parents[stack_id]
        if name in self.parents:  # a nested stack's generated name: its resource's
            parent, name = self.parents[name]
            path.insert(0, name)
            self._prepend(path, parent, seen)
        elif name:
            path.insert(0, name)

    def lines(self, events):
        """The log text of ``events``, one line each."""
        out = []
        for event in events:
            info = event.to_dict() if hasattr(event, "to_dict") else dict(event)
            out.append(
                LOG_FORMAT
                % {
                    "time": str(info.get("event_time") or "").replace("T", " "),
                    "id": info.get("id", ""),
                    "name": self.name(event),
                    "status": info.get("resource_status", ""),
                    "reason": info.get("resource_status_reason", ""),
                }
            )
        return "\n".join(out)


def one_line(text):
    """``text`` on one line (Heat's reasons may span several)."""
    return " ".join(str(text or "").split())


def failure_message(client, stack, status, reason):
    """One line saying why ``stack`` ended in ``status``: the deepest
    failed resource, its type and its reason (else the stack's reason)."""
    name = getattr(stack, "stack_name", stack)
    try:
        failures = client.stack_resources.failures(stack)
    except exceptions.ClientException:
        failures = {}
    if failures:
        path = max(failures, key=lambda p: p.count("."))
        rsc = failures[path]
        return "Stack %s %s: resource %s (%s) %s: %s" % (
            name,
            status,
            path.partition(".")[2] or path,
            getattr(rsc, "resource_type", "?"),
            getattr(rsc, "resource_status", "FAILED"),
            one_line(getattr(rsc, "resource_status_reason", "")) or "no reason given",
        )
    return "Stack %s %s: %s" % (name, status, one_line(reason) or "no reason given")


def wait_for_stack(
    client, stack, action, marker=None, timeout=3600, interval=5, stream=None, sleep=time.sleep
):
    """Poll ``stack``'s events after ``marker`` (oldest first), writing
    each to ``stream``, until the event of the stack itself says
    ``<action>_COMPLETE`` or ``_FAILED`` (``action`` None: any action);
    after two polls without events the stack itself is read. A FAILED
    stack raises ResourceInErrorState naming its deepest failed resource;
    past ``timeout`` seconds, WaitTimeout. Returns the final status.
    ``stack`` is a Stack (its name and id known)."""
    name = stack.stack_name
    ident = stack.identifier

    def settled(status):
        if action:
            return status in ("%s_COMPLETE" % action, "%s_FAILED" % action)
        return status.endswith(("_COMPLETE", "_FAILED"))

    log = EventLog()
    deadline = time.monotonic() + timeout
    empty = 0
    while True:
        events = client.stack_events.list(ident, sort_dir="asc", marker=marker)
        status = reason = None
        if events:
            empty = 0
            marker = events[-1].id
            if stream is not None:
                stream.write(log.lines(events) + "\n")
                stream.flush()
            for event in events:
                if stack_events.is_stack_event(event, name) and settled(event.resource_status):
                    status = event.resource_status
                    reason = getattr(event, "resource_status_reason", "")
        else:
            empty += 1
        if status is None and empty >= 2:
            empty = 0
            found = client.stacks.get(ident, resolve_outputs=False)
            if settled(found.stack_status):
                status, reason = found.stack_status, getattr(found, "stack_status_reason", "")
        if status is not None:
            if status.endswith("_FAILED"):
                raise exceptions.ResourceInErrorState(
                    failure_message(client, stack, status, reason)
                )
            return status
        if time.monotonic() >= deadline:
            raise exceptions.WaitTimeout(
                "Timed out after %ss waiting for stack %s to finish %s."
                % (timeout, name, action or "its action")
            )
        sleep(min(interval, max(0.0, deadline - time.monotonic())))
