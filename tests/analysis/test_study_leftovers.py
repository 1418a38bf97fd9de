"""What the study page (`agon view`) tells, as the plots tell it: a branch named twice is refused as `plot scores`
refuses it, and the setup is named "setup" on the page as in the plots' hovers."""

from __future__ import annotations

import json
from pathlib import Path


def _demo(agon, ruleset: str) -> str:
    return json.loads(agon("demo", ruleset, "--seed", "3", "--json").stdout)["id"]


def test_view_refuses_a_branch_given_twice_as_plot_scores_does(agon):
    """`agon view G -b main -b main` wrote a page of main alone without a word, while `plot scores` refuses the same
    branch twice: it is refused in one line naming the branch and the command that lists them, and writes nothing."""
    gid = _demo(agon, "pergamemnon")
    agon("branch", gid, "whatif", "--at", "40")
    said = agon("view", gid, "-b", "main", "-b", "main", ok=False)
    assert said.exit_code == 2 == agon("plot", "scores", gid, "-b", "main", "-b", "main", ok=False).exit_code
    assert said.stderr.strip().splitlines() == [
        f"error: give each branch to show once, not main twice (`agon branches {gid}` lists them)"]
    assert not Path("plots").exists()
    # also when the first is named once and the twice-named one comes after it
    later = agon("view", gid, "-b", "whatif", "-b", "main", "-b", "main", "-o", "two.html", ok=False)
    assert later.stderr.strip() == f"error: give each branch to show once, not main twice (`agon branches {gid}`" \
                                   " lists them)"
    assert not Path("two.html").exists()
    agon("view", gid, "-b", "whatif", "-b", "main", "-o", "two.html")  # each once: both shown
    assert Path("two.html").exists()
