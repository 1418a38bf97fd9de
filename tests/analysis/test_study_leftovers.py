"""What the study page (`agon view`) tells, as the plots tell it: a branch named twice is refused as `plot scores`
refuses it, and the setup is named "setup" on the page as in the plots' hovers."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest


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


HEADS = """() => { const out = {}; let head = null;
    document.querySelectorAll('#moves > div').forEach(e => {
      if (e.classList.contains('round')) head = e.textContent;
      else if (e.classList.contains('move')) out[e.querySelector('.num').textContent.replace('.', '')] = head; });
    return out; }"""


def _hovers(html: str) -> dict[int, str]:
    """The round each event's hover on `agon plot scores` names, by event number ('#4 (setup): ...')."""
    return {int(n): r for n, r in re.findall(r'"#(\d+) \(([^)]*)\): ', html)}


@pytest.mark.browser
@pytest.mark.parametrize(("ruleset", "last_setup"), [("peloponnes", 4), ("pergamemnon", 5)])
def test_the_setup_is_named_setup_on_the_study_page_as_in_the_plots_hovers(agon, page, tmp_path, ruleset, last_setup):
    """`agon demo RULESET --seed 3`: the study page headed the setup's events "Round 0" ("Turn 0" for Pergamemnon)
    and its step label said "round 1" ("turn 1") at the setup's last deal, while the score plot's hover said
    "setup". The move list heads them "Setup" and the step label says "setup"; every event's heading names the
    round its hover names, and the step label the same."""
    gid = _demo(agon, ruleset)
    agon("plot", "scores", gid, "-o", "scores.html")
    hovers = _hovers((tmp_path / "scores.html").read_text())
    assert hovers[last_setup] == "setup" and hovers[last_setup + 1] in ("round 1", "turn 1")
    agon("view", gid, "-o", "study.html")
    page.goto((tmp_path / "study.html").as_uri() + f"#line=main&step={last_setup}")
    page.wait_for_function("document.body && document.body.dataset.ready === '1'")
    page.wait_for_function(f"document.body.dataset.step === '{last_setup}'")
    heads = {int(n): h for n, h in page.evaluate(HEADS).items()}
    assert [heads[n] for n in range(last_setup + 2)] == ["Setup"] * (last_setup + 1) + [
        "Round 1" if ruleset == "peloponnes" else "Turn 1"]
    assert not any(h.endswith(" 0") for h in heads.values())
    assert page.text_content("#step-label").endswith(f" · event {last_setup} of {max(heads)} · setup")
    for n, said in hovers.items():  # every event the plot draws, headed as its hover names its round
        assert heads[n].lower() == said, (n, heads[n], said)
    page.click(f"#moves .move[data-step='{last_setup + 1}']")
    page.wait_for_function(f"document.body.dataset.step === '{last_setup + 1}'")
    assert page.text_content("#step-label").endswith(" · " + hovers[last_setup + 1])
    assert page.page_errors == []
