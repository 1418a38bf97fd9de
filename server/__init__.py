"""``agon serve``: the game service over HTTP (issue 16). Routes, seat tokens and pages; no rules, no store code."""
