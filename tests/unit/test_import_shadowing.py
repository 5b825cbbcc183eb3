"""The README's warning about a folder named ``occli`` beside a script.

Python puts the script's own folder first on ``sys.path``. A folder there
that is a package (an ``__init__.py``: a clone's inner ``occli/``) is
imported whatever is installed; a folder without one (the clone itself)
becomes a namespace package, with no ``Client``, only when the path search
finds no regular ``occli`` package (not installed, or installed editable
through setuptools' finder, which is asked after the path search; the
Makefile's venv puts the checkout on the path instead). Each case runs
in a subprocess (``sys.executable -S``: no site-packages, so only the
folders given here can provide ``occli``).
"""

import os
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCRIPT = "from occli import Client\nprint(Client)\n"
ERROR = "ImportError: cannot import name 'Client' from 'occli' (unknown location)"


def package(path, marker):
    """A regular ``occli`` package at ``path`` whose ``Client`` is ``marker``."""
    path.mkdir(parents=True)
    (path / "__init__.py").write_text("Client = %r\n" % marker)


@pytest.fixture
def layout(tmp_path):
    """``clone/`` is a clone named occli beside ``script.py``; ``installed/``
    holds a regular occli package, as site-packages would."""
    clone = tmp_path / "occli"
    package(clone / "occli", "the clone's")
    (clone / "README.rst").write_text("occli\n")
    (tmp_path / "script.py").write_text(SCRIPT)
    (clone / "script.py").write_text(SCRIPT)
    package(tmp_path / "installed" / "occli", "the installed")
    return tmp_path


def run(script, pythonpath=None, isolated=True):
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    if pythonpath is not None:
        env["PYTHONPATH"] = str(pythonpath)
    argv = [sys.executable] + (["-S"] if isolated else []) + [str(script)]
    return subprocess.run(
        argv, cwd=script.parent, env=env, capture_output=True, text=True, timeout=60
    )


def test_the_readme_names_the_error_and_the_condition():
    text = " ".join((ROOT / "README.rst").read_text().split())
    assert ERROR in text
    for words in (
        "without an ``__init__.py``",
        "no regular occli package",
        "editable_mode=compat",
    ):
        assert words in text, words


def test_a_clone_beside_the_script_fails_when_no_regular_occli_is_installed(layout):
    proc = run(layout / "script.py")
    assert proc.returncode == 1
    assert ERROR in proc.stderr


def test_a_clone_beside_the_script_is_harmless_when_occli_is_installed(layout):
    proc = run(layout / "script.py", pythonpath=layout / "installed")
    assert (proc.returncode, proc.stdout) == (0, "the installed\n"), proc.stderr


def test_the_package_folder_beside_the_script_always_wins(layout):
    proc = run(layout / "occli" / "script.py", pythonpath=layout / "installed")
    assert (proc.returncode, proc.stdout) == (0, "the clone's\n"), proc.stderr


def _editable_occli():
    """Whether this Python finds occli through setuptools' editable finder."""
    return any(
        getattr(finder, "__module__", "").startswith("__editable___occli_")
        for finder in sys.meta_path
    )


def _checkout_on_path():
    """Whether this Python has the checkout itself on its path (a ``.pth``
    line, as the Makefile's ``editable_mode=compat`` install writes)."""
    return str(ROOT) in sys.path and not _editable_occli()


@pytest.mark.skipif(not _editable_occli(), reason="occli is not installed editable here")
def test_an_editable_install_does_not_save_a_script_beside_a_clone(layout):
    proc = run(layout / "script.py", isolated=False)
    assert proc.returncode == 1
    assert ERROR in proc.stderr


def test_the_makefile_installs_the_checkout_on_the_path():
    makefile = (ROOT / "Makefile").read_text()
    assert "EDITABLE := --config-settings editable_mode=compat" in makefile
    assert makefile.count("pip install --quiet $(EDITABLE) -e") == 2


@pytest.mark.skipif(not _checkout_on_path(), reason="not the Makefile's venv")
def test_the_makefiles_venv_imports_occli_beside_a_clone(layout):
    script = layout / "script.py"
    script.write_text("import occli\nprint(occli.__file__)\nfrom occli import Client\n")
    proc = run(script, isolated=False)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == str(ROOT / "occli" / "__init__.py")
