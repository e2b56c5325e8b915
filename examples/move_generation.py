"""Move generation: every legal move of a hand, following a move, and the
readings of a card set (docs/rules.md §1-2; laizi §7).

    python examples/move_generation.py
"""

from ddzcore import Hand, Move, Rules, classify, count_moves, legal_moves

hand = Hand("3334445556789TJQKA2B")  # T (or 10) is ten, B the small joker, R the big one
leads = legal_moves(hand)  # a free lead: every combination the hand can form
print(f"{hand}: {len(leads)} legal leads, e.g. {leads[0]} and {leads[len(leads) - 1]}")

last = Move("777888999TTT|plane_single|9|3")  # a plane with wings to beat
follows = legal_moves("3333JJJQQQQKKKAAA", last=last)
print(f"to beat {last}: {len(follows)} moves, pass first: {[str(m) for m in follows[:4]]}")

print("readings of 333444555666:", [str(m) for m in classify("333444555666")])
print("four 7s wild (laizi):", count_moves("3777", rules=Rules(wild="7")), "moves of 3777")
