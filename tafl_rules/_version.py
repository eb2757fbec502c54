"""The package's version, in one place (read by ``pyproject.toml``, the site and the lab's provenance)."""

__version__ = "0.1.0"
