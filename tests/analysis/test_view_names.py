"""``agon view G`` and ``agon view G -b main -b other`` (and either ``--as`` a player) wrote the same default file,
plots/G-main-view.html, so the second page silently replaced the first: a teacher who made the page of every line
and then one of two lines to hand out found only the last. A page of the lines named with -b has a name of its own
(plots/G-lines=main+other-view.html), and each page written is still there after the other."""

from __future__ import annotations

import json
import re

import pytest


@pytest.mark.parametrize("viewer", [[], ["--as", "Ana"], ["--public"]])
def test_the_page_of_every_line_and_that_of_the_lines_named_are_two_files(agon, tmp_path, viewer):
    game = json.loads(agon("demo", "peloponnes", "--seed", "3", "--json").stdout)["id"]
    agon("branch", game, "other", "--at", "20")
    agon("branch", game, "third", "--at", "30", "-b", "main")
    agon("switch", game, "main")
    every = re.search(r"to (plots/\S+\.html)", agon("view", game, *viewer).stdout)[1]
    named = re.search(r"to (plots/\S+\.html)", agon("view", game, "-b", "main", "-b", "other", *viewer).stdout)[1]
    alone = re.search(r"to (plots/\S+\.html)", agon("view", game, "-b", "main", *viewer).stdout)[1]
    assert every.startswith(f"plots/{game}-main-view") and named.startswith(f"plots/{game}-lines=main+other-view")
    assert alone.startswith(f"plots/{game}-lines=main-view")
    assert len({every, named, alone}) == 3
    pages = {p: (tmp_path / p).read_text(encoding="utf-8") for p in (every, named, alone)}
    assert '"name":"third"' in pages[every].replace(" ", "")  # the page of every line is the one it was
    assert '"name":"third"' not in pages[named].replace(" ", "") and '"name":"other"' in pages[named].replace(" ", "")
    assert '"name":"other"' not in pages[alone].replace(" ", "")
