"""The rulesets, one folder each (see agon.core.registry)."""
