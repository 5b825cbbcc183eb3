"""The directories occli and openstacksdk keep files in (the user's cache,
configuration and data; the site's configuration), as platformdirs names
them, without importing platformdirs where they are the XDG base
directories: its import was 1.9 ms of every command's start (issue 26).

On Linux (not Android) with an absolute or unset ``HOME`` they are worked
out here as platformdirs 4 does: ``$XDG_*_HOME`` if it is an absolute path,
else the default under the home directory, then the application's name;
``$XDG_CONFIG_DIRS``' absolute entries, else ``/etc/xdg``. Anywhere else
(macOS, Windows, Android, a relative ``HOME``) platformdirs answers.
``tests/unit/test_userdirs.py`` checks both agree.
"""

import os
import sys


def _xdg() -> bool:
    """Whether the directories are the XDG ones worked out here."""
    environ = os.environ
    android = environ.get("ANDROID_DATA") == "/data" and environ.get("ANDROID_ROOT") == "/system"
    home = environ.get("HOME")
    return (
        sys.platform.startswith("linux")
        and not android
        and not hasattr(sys, "getandroidapilevel")
        and (home is None or os.path.isabs(home))
    )


def _home(variable: str, default: str) -> str:
    path = os.environ.get(variable, "")
    return path if os.path.isabs(path) else os.path.expanduser(default)


def user_cache_dir(app: str) -> str:
    """``platformdirs.user_cache_dir(app)``: ``~/.cache/<app>`` on Linux."""
    if _xdg():
        return os.path.join(_home("XDG_CACHE_HOME", "~/.cache"), app)
    import platformdirs

    return platformdirs.user_cache_dir(app)


def user_data_dir(app: str) -> str:
    """``platformdirs.user_data_dir(app)``: ``~/.local/share/<app>`` on Linux."""
    if _xdg():
        return os.path.join(_home("XDG_DATA_HOME", "~/.local/share"), app)
    import platformdirs

    return platformdirs.user_data_dir(app)


def config_dirs(app: str, author: str) -> tuple[str, list[str]]:
    """The user's configuration directory of ``app`` and the site's (all
    of them): ``PlatformDirs(app, author, multipath=True)``'s
    ``user_config_dir`` and ``site_config_dir`` split."""
    if _xdg():
        user = os.path.join(_home("XDG_CONFIG_HOME", "~/.config"), app)
        listed = os.environ.get("XDG_CONFIG_DIRS", "").split(os.pathsep)
        site = [path for path in listed if os.path.isabs(path)] or ["/etc/xdg"]
        return user, [os.path.join(path, app) for path in site]
    import platformdirs

    dirs = platformdirs.PlatformDirs(app, author, multipath=True)
    return dirs.user_config_dir, dirs.site_config_dir.split(os.pathsep)
