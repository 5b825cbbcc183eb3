"""Sphinx configuration of occli's documentation (``make docs``).

HTML goes to doc/build/html, the manual page occli(1) to doc/build/man.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "_ext"))
sys.path.insert(0, os.path.abspath(os.path.join(HERE, "..", "..")))

import occli  # noqa: E402

project = "occli"
author = "the occli authors"
copyright = "the occli authors; Apache-2.0"
version = release = occli.__version__

extensions = [
    "sphinx.ext.autodoc",
    "myst_parser",
    "occli_sphinx",  # autoprogram-cliff for occli's commands, occli-argparse
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build"]
templates_path = []
# no network access while building: no intersphinx, no remote images
default_role = "literal"
pygments_style = "sphinx"
# no typographic quotes or dashes: docutils' smartquotes would turn an
# option's ``--`` into an en-dash and ``'`` into a curly quote in help texts
# (paragraphs, not literals), and a pasted example would then fail
smartquotes = False

# -- the command reference (cliff.sphinxext) ---------------------------------

autoprogram_cliff_application = "occli"
autoprogram_cliff_app_dist_name = "occli"
# cliff's formatter options, the same for every list or show command, are
# described once (cli/index.rst, "Output"); -f and -c stay with each command
autoprogram_cliff_ignored = [
    "--help",
    "--quote",
    "--noindent",
    "--prefix",
    "--max-width",
    "--fit-width",
    "--print-empty",
    "--sort-column",
    "--sort-ascending",
    "--sort-descending",
]

# -- the SDK reference (autodoc) ---------------------------------------------

autodoc_default_options = {
    "members": True,
    "show-inheritance": True,
    "member-order": "bysource",
}
autodoc_typehints = "none"
autoclass_content = "both"

# -- Markdown (doc/architecture.md, doc/localcloud-internals.md) -------------

myst_heading_anchors = 3
myst_enable_extensions = []

# -- HTML --------------------------------------------------------------------

html_theme = "alabaster"
html_title = "occli %s" % release
html_static_path = []
html_show_sourcelink = False

# -- the manual page ---------------------------------------------------------

man_pages = [
    (
        "cli/index",
        "occli",
        "OpenStack client for Keystone, Nova, Glance, Neutron, Cinder, Heat and Swift",
        [author],
        1,
    ),
]
man_show_urls = False
