"""Analysis: what a recorded line means, as plain rows, and pictures of it.

Projections (``timeline``, ``compare``, ``stats``) are pure functions from lines of events to plain rows; they
never write to the store and never import plotly. Figure builders (``figures``, ``games.*``) turn rows into plotly
Figures and import plotly only inside the functions that draw, so the CLI starts without it. ``study`` writes the
self-contained HTML study page of a game (``agon view``, and ``agon serve``'s spectators' page, as every player
sees the game).
"""
