# cython: language_level=3
"""The flow actions (every decision but a play), one table for the kernel and
the Python games: ``ddzcore.game.Action`` (three players, docs/rules.md §4-6)
and ``ddzcore.game.five.FiveAction`` (five players, docs/rules.md §8) carry these
values, and ``ddzcore._state.FLOW_ACTIONS`` exposes them to Python
(tests/test_native_boundary.py checks the enums against it).

    from ddzcore.flow cimport A_CALL, A_ROB, NO_ACTION
"""

cdef enum:
    A_NO_SHOW = 0       # 不明牌
    A_SHOW = 1          # 明牌
    A_NO_CALL = 2       # 不叫
    A_CALL = 3          # 叫地主
    A_NO_ROB = 4        # 不抢
    A_ROB = 5           # 抢地主
    A_NO_BID = 6        # 不叫 (point bidding, 叫分)
    A_BID_1 = 7         # 1分
    A_BID_2 = 8         # 2分
    A_BID_3 = 9         # 3分
    A_NO_DOUBLE = 10    # 不加倍
    A_DOUBLE = 11       # 加倍
    A_ESCAPE = 12       # 逃跑 (recorded, never a legal choice)
    A_NO_REVEAL = 13    # 不亮 (five players)
    A_REVEAL = 14       # 亮出身份 (five players)
    NO_ACTION = 255     # padding after the last decision in a row of actions
