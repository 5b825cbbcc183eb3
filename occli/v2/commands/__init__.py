"""Commands of several services (``quota``, ``extension``), occli's own
(``plugin``), and the helpers every command module uses: the bulk-action
engine (:mod:`~occli.v2.commands.bulk`) and reading the files options name
(:mod:`~occli.v2.commands.files`). A service's commands are in its
package's ``commands`` (:mod:`occli.v2.compute.commands`…)."""

from occli import v2

__getattr__ = v2.forward(__name__)
