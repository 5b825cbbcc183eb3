"""Bash completion: the script of ``occli complete`` run by a real bash.

COMP_WORDS/COMP_CWORD are set as bash sets them for ``occli --os-cloud
<TAB>`` and the script's function is called; the cloud names come from a
temporary clouds.yaml (OS_CLIENT_CONFIG_FILE) and the local cloud's file,
through the real ``occli`` program on PATH.
"""

import os
import shutil
import subprocess
import sys

import pytest
import yaml

BASH = shutil.which("bash")
BASH_COMPLETION = "/usr/share/bash-completion/bash_completion"

pytestmark = pytest.mark.skipif(BASH is None, reason="bash is not installed")


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("completion")
    clouds = {"alpha": {"auth": {}}, "beta": {"auth": {}}, "prod-east": {"auth": {}}}
    (tmp / "clouds.yaml").write_text(yaml.safe_dump({"clouds": clouds}))
    (tmp / "lc").mkdir()
    (tmp / "lc" / "clouds.yaml").write_text(yaml.safe_dump({"clouds": {"local": {}}}))
    bin_dir = os.path.dirname(sys.executable)
    return {
        "PATH": bin_dir + os.pathsep + "/usr/bin:/bin",
        "HOME": str(tmp),
        "OS_CLIENT_CONFIG_FILE": str(tmp / "clouds.yaml"),
        "OCCLI_LOCALCLOUD_DIR": str(tmp / "lc"),
        "OCCLI_CACHE_DIR": str(tmp / "cache"),
    }


@pytest.fixture(scope="module")
def script(env, tmp_path_factory):
    """The completion script, as ``occli complete > file`` writes it."""
    path = tmp_path_factory.mktemp("script") / "occli.bash"
    with open(path, "w") as out:
        subprocess.run(["occli", "complete"], env=env, stdout=out, check=True)
    return str(path)


def complete(script, env, words, preload=""):
    """COMPREPLY for the command line ``words`` (the last is the one completed)."""
    quoted = " ".join("'%s'" % w for w in words)
    program = (
        "%s\nsource %s\nCOMP_WORDS=(%s)\nCOMP_CWORD=%d\n"
        'COMP_LINE="${COMP_WORDS[*]}"\nCOMP_POINT=${#COMP_LINE}\n'
        "_occli\nprintf '%%s\\n' \"${COMPREPLY[@]}\"\n"
    ) % (preload, script, quoted, len(words) - 1)
    proc = subprocess.run(
        [BASH, "--norc", "--noprofile", "-c", program],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return sorted(line for line in proc.stdout.splitlines() if line)


def test_os_cloud_completes_the_cloud_names(script, env):
    assert complete(script, env, ["occli", "--os-cloud", ""]) == [
        "alpha",
        "beta",
        "local",
        "prod-east",
    ]
    assert complete(script, env, ["occli", "--os-cloud", "pr"]) == ["prod-east"]


def test_os_cloud_with_equals_completes_the_cloud_names(script, env):
    assert complete(script, env, ["occli", "--os-cloud", "=", "b"]) == ["beta"]


def test_commands_and_options_after_global_options(script, env):
    assert complete(script, env, ["occli", "--os-cloud", "alpha", "serv"]) == ["server", "service"]
    assert "list" in complete(script, env, ["occli", "--os-cloud", "alpha", "server", ""])
    assert complete(script, env, ["occli", "--os-clo"]) == ["--os-cloud"]
    assert "--os-cloud" in complete(script, env, ["occli", "--debug", "--os-"])


def test_cloud_names_of_a_file_without_clouds(script, env, tmp_path):
    (tmp_path / "clouds.yaml").write_text("clouds: {}\n")
    bare = dict(env, OS_CLIENT_CONFIG_FILE=str(tmp_path / "clouds.yaml"), HOME=str(tmp_path))
    bare["OCCLI_LOCALCLOUD_DIR"] = str(tmp_path / "none")
    proc = subprocess.run(
        ["occli", "complete", "--cloud-names"],
        env=bare,
        cwd=str(tmp_path),
        capture_output=True,
        text=True,
    )
    assert (proc.returncode, proc.stdout) == (0, "")


@pytest.mark.skipif(not os.path.exists(BASH_COMPLETION), reason="no bash-completion")
def test_with_bash_completion_loaded(script, env):
    preload = "source %s" % BASH_COMPLETION
    assert complete(script, env, ["occli", "--os-cloud", "al"], preload) == ["alpha"]
