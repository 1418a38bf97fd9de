"""Shared fixtures: the test-only ruleset ``toy`` and a fresh store per test."""

from __future__ import annotations

from core import registry

registry.register("toy", "tests.toygame")


def shipped_rulesets() -> list[str]:
    return [n for n in registry.names() if n != "toy"]
