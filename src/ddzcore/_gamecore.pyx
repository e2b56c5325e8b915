# cython: language_level=3, wraparound=False, cdivision=True
"""The play step of ``ddzcore.game``'s games in C (docs/rules.md §3, §8).

``GameCore`` is the compiled base of ``ddzcore.game.base.GameBase``: it
holds the fields the play phase changes (the phase, the seat to act, the
hands, the trick, the bomb and play counts, the winner and the history)
and implements ``is_terminal``, ``current_player``, ``legal_actions`` and
``apply`` for the play phase, so that a Python loop of ``legal_actions()``
and ``apply()`` makes one C call each per move: the moves come from the
kernel's generator straight into a ``MoveList``; a ``Move`` is checked
with the kernel's predicates (cards in hand, a valid reading, beating the
move to beat) and played without Python frames.  Everything else (the
flow phases, text, moves of other types, the reasons a move is illegal)
goes to the Python game's methods: ``_flow_legal``, ``_apply_other``,
``_push_move``, ``_why_illegal``, ``_doubling`` and ``_marked_played``.

This module imports nothing from the Python layer: the game class names
its move, move-list and hand types (``_MOVE``, ``_MOVES``, ``_HAND``) and its constants
(``PLAYERS``, ``_DECKS``, ``_P_PLAY``, ``_P_END``, ``_MARKED``), read once
per game.
"""

from ddzcore.bits cimport u64, contains, info_combo, is_bomb_combo, C_PASS, C_SOFT_BOMB
from ddzcore._kernel cimport beats, valid_reading
from ddzcore._movelist cimport generated

from ddzcore._errors import IllegalActionError

#: The fields ``GameCore`` holds (``GameBase.copy`` copies them with the slots).
CORE_FIELDS = ("_ph", "_cur", "_flags", "_prules", "_hands", "_last", "_lastp", "_bombs", "_soft", "_plays",
               "_winner", "_hist")

cdef object _object_new = object.__new__

cdef class GameCore:
    """The compiled base of the games (see the module docstring); not used alone."""

    cdef public int _ph, _cur, _flags, _lastp, _bombs, _soft
    cdef public object _prules, _hands, _last, _plays, _winner, _hist
    cdef int _play_ph, _end_ph, _players, _decks
    cdef bint _plain            # moves are recorded as given (no marked-face cards: three players)
    cdef object _move_t, _moves_t, _hand_t

    def __cinit__(self, *args, **kwargs):
        t = type(self)
        self._play_ph = t._P_PLAY
        self._end_ph = t._P_END
        self._players = t.PLAYERS
        self._decks = t._DECKS
        self._plain = not t._MARKED
        self._move_t = t._MOVE
        self._moves_t = t._MOVES
        self._hand_t = t._HAND
        self._lastp = -1

    def current_player(self):
        """The seat to act, or ``TERMINAL`` (-1) when the game is over."""
        return self._cur

    def is_terminal(self):
        """Whether the game is over (a player went out or escaped, or the redeal cap ended it)."""
        return self._ph == self._end_ph

    def legal_actions(self):
        """The current player's legal actions: the flow actions of the phase
        (sorted), or in play a ``MoveList`` (the kernel's order; when
        following, ``PASS`` first; only ``PASS`` after the move nothing
        beats).  A leader cannot pass.  Empty at the end (docs/rules.md §3)."""
        cdef int p
        cdef u64 lc = 0, li = 0
        if self._ph != self._play_ph:
            return self._flow_legal()
        p = self._cur
        if p != self._lastp:
            last = self._last
            lc = last._cards
            li = last._info
        return generated(self._moves_t, self._hands[p]._word, lc, li, self._flags, self._prules)

    def apply(self, action):
        """Apply the current player's action (a flow action, a ``Move``, or
        text that ``parse_action`` reads).  Raises ``IllegalActionError`` (a
        ``ValueError``) for an action that is not legal here, or
        ``InvalidMoveError`` for unreadable text; the game is then unchanged."""
        cdef int p
        cdef u64 c, i
        if self._ph != self._play_ph or (type(action) is not self._move_t and not isinstance(action, self._move_t)):
            self._apply_other(action)
            return
        p = self._cur
        i = action._info
        if info_combo(i) != C_PASS:
            c = action._cards
            last = self._last
            if (not contains(self._hands[p]._word, c) or not valid_reading(c, i, self._flags)
                    or (p != self._lastp and not beats(c, i, last._cards, last._info, self._flags))):
                raise IllegalActionError(self._why_illegal(action))
        elif p == self._lastp:
            raise IllegalActionError(self._why_illegal(action))
        if self._plain and type(action) is self._move_t:
            self._step(p, action, 0)
        else:
            self._push_move(p, action)

    def _play(self, int p, move, int k):
        """The play step (docs/rules.md §3): ``move`` (as recorded) leaves
        seat ``p``'s hand, becomes the move to beat, and the turn passes on;
        ``k`` marked-face cards are among its cards (five players)."""
        self._step(p, move, k)

    cdef int _step(self, int p, move, int k) except -1:
        cdef u64 c, i, h
        cdef int combo
        self._hist.append((p, move, self._last, self._lastp, k))
        i = move._info
        combo = info_combo(i)
        if combo != C_PASS:
            c = move._cards
            h = <u64>self._hands[p]._word - c
            hand = _object_new(self._hand_t)
            hand._word = h
            hand._decks = self._decks
            self._hands[p] = hand
            self._last = move if type(move) is self._move_t else self._move_t._from_codes(c, i)
            self._lastp = p
            if is_bomb_combo(combo) and self._doubling(c, i):
                self._bombs += 1
                if combo == C_SOFT_BOMB:
                    self._soft += 1
            plays = self._plays
            plays[p] = plays[p] + 1
            if k:
                self._marked_played(p, k, 1)
            if h == 0:
                self._winner = p
                self._ph = self._end_ph
                self._cur = -1
                return 0
        self._cur = p + 1 if p < self._players - 1 else 0
        return 0
