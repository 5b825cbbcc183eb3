"""What other services may ask of Swift.

Cinder's Swift backup driver (volume backups) calls these and nothing else
of the object store's rules: objects of a project's account written,
listed, read and deleted as Swift answers a PUT, GET or DELETE made with
the project's own token — the account (``AUTH_<project id>``) made on the
first write as keystoneauth's ``allow_overrides``/account autocreate does,
the container as a container PUT makes it, the account's quotas enforced.

Bytes go through the object store's files (``cloud.objectstore.files``, a
:class:`occli.localcloud.files.Files`) in chunks the caller yields and
reads of at most ``files.CHUNK`` bytes: never a whole object in memory.
The database holds only the rows: writes store the files first, then
record every row in one short transaction.
"""

from occli.localcloud.objectstore.project_objects import account
from occli.localcloud.objectstore.project_objects import delete_objects
from occli.localcloud.objectstore.project_objects import names
from occli.localcloud.objectstore.project_objects import put_objects
from occli.localcloud.objectstore.project_objects import remove_files

__all__ = ["account", "delete_objects", "names", "put_objects", "remove_files"]
