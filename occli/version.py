"""occli's version, in one place: ``setup.cfg`` and the package's face
(``occli.__version__``, which ``occli --version`` and the docs read) take
it from here, and so does the client's User-Agent (the face names the
client, so the client does not import the face)."""

__version__ = "0.1.0"
