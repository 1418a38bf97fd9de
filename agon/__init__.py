"""agon: record, replay, branch and plot tabletop games as immutable event logs.

The installed package is one namespace: ``agon.core``, ``agon.events``, ``agon.cli``, ``agon.analysis`` and
``agon.server`` are the project's top-level folders of the same names, mapped under ``agon`` by setup.py.
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("agon")
except PackageNotFoundError:  # a checkout used without installing it
    __version__ = "0+unknown"
