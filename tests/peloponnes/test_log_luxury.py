"""The luxury track is public and the log says every move of it: goods spent or taken back in a decision's own
sentence, and those gained or lost by themselves (production left over by a building, grain left over by the supply,
income, a catastrophe) after it, so a teacher reading the log sees where every luxury good came from."""

from __future__ import annotations

import json


def test_the_log_tells_the_luxury_goods_production_left_over_gives(agon):
    gid = agon("new", "peloponnes", "--player", "Ana", "--bot", "Bruno:greedy", "--bot", "Chloe:random",
               "--seed", "4").stdout.split()[0]
    agon("act", gid, "2")  # Ana bids 3 on the Sanctuary of Hera and wins it
    agon("act", gid, "1")  # and builds it: her production pays, with 1 more than it costs

    def luxury(n: int) -> int:
        return json.loads(agon("state", gid, "--at", str(n), "--json").stdout)["view"]["players"]["Ana"]["luxury"]

    assert (luxury(10), luxury(11)) == (0, 1)
    log = " ".join(agon("log", gid).stdout.split())
    assert ("11. Ana builds Sanctuary of Hera, paying production plus 0 wood, 0 stone and 0 luxury from hand; Ana gains"
            " 1 luxury good. 12.") in log
    # with her whole hand bid, the Sanctuary is built by itself after #10, and the good with it
    agon("branch", gid, "five", "--at", "8")
    agon("act", gid, "4")
    log = " ".join(agon("log", gid).stdout.split())
    assert "Ana builds Sanctuary of Hera, production paying for it; Ana gains 1 luxury good. 11." in log

