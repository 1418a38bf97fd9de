"""A building that production pays for is built without a decision when its player holds no coin card or luxury
good to put under it instead (flow, 'build'); the log says so, so a teacher reading it sees where every building on
the table came from."""

from __future__ import annotations


def test_the_log_tells_a_building_built_without_a_decision(agon):
    gid = agon("new", "peloponnes", "--player", "Ana", "--bot", "Bruno:greedy", "--bot", "Chloe:random",
               "--seed", "4").stdout.split()[0]
    # Ana bids her whole hand (5) on the Sanctuary of Hera; Bruno moves his bid and the auction ends, and with an
    # empty hand and production that pays, Ana is not asked: the Sanctuary stands built after #10
    assert "Ana bids 5 on A06 Sanctuary of Hera" in agon("options", gid).stdout
    agon("act", gid, "4")
    state = agon("state", gid, "--at", "10", "--json").stdout
    assert "Sanctuary of Hera" in state.split('"buildings"', 2)[1].split('"lands"')[0]
    log = " ".join(agon("log", gid).stdout.split())
    assert ("new turn order by bids (Ana 5, Bruno 2, Chloe 0): Ana, Bruno, Chloe; Ana builds Sanctuary of Hera,"
            " production paying for it; Ana gains 1 luxury good. 11. Ana draws 3 coin cards (income).") in log
    # and where Ana decides (a bid of 3 leaves her cards to put under it), the decision's own sentence says it once
    agon("branch", gid, "three", "--at", "8")
    agon("act", gid, "2")
    assert "Now: Ana to act: pay for your new building" in agon("log", gid).stdout
    # her options tell the building once, as her decision builds it, not again as built by itself
    options = agon("options", gid).stdout
    assert ("    1. Ana builds A06 Sanctuary of Hera, paying production plus 0 wood, 0 stone and 0 luxury from hand;"
            " Ana gains 1 luxury good.\n") in options
    assert "production paying for it" not in options
    agon("act", gid, "1")
    log = " ".join(agon("log", gid).stdout.split())
    assert "production paying for it" not in log.split(" 12. ")[0]
    assert "11. Ana builds Sanctuary of Hera, paying production plus 0 wood, 0 stone and 0 luxury from hand;" in log
