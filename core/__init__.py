"""The domain and application layers: the engine protocol, the rulesets, the service and the bots."""
