"""The event layer: event types, their codec and the store. Imports nothing from core/, cli/ or analysis/."""
