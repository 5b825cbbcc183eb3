"""One "send null" sentinel, occli.base.CLEAR, under its old names too."""

from occli import base
from occli.v2 import servers as old_servers
from occli.v2.compute import server_lifecycle
from occli.v2.compute import servers


def test_old_names_are_the_one_sentinel():
    assert servers.CLEAR is base.CLEAR
    assert old_servers.CLEAR is base.CLEAR
    assert server_lifecycle.NO_ZONE is base.CLEAR
    assert isinstance(base.CLEAR, base.Clear)
    assert repr(base.CLEAR) == "CLEAR"
