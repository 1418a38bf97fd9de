"""Maps the project's top-level folders under the one ``agon`` namespace; everything else is in pyproject.toml.

``core/``, ``events/``, ``cli/``, ``analysis/`` and ``server/`` stay where the project was laid out, and install as
``agon.core`` and so on. The subpackages are found here rather than listed by hand, so a new folder cannot be left
out of the wheel.
"""

from setuptools import find_packages, setup

FOLDERS = ("core", "events", "cli", "analysis", "server")

packages = ["agon"] + [f"agon.{p}" for p in find_packages(include=[f"{f}*" for f in FOLDERS])]
setup(packages=packages, package_dir={f"agon.{f}": f for f in FOLDERS})
