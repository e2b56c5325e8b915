# cython: language_level=3, wraparound=False, cdivision=True
"""The play step of ``ddzcore.game``'s games in C (docs/rules.md §3, §8).

``GameCore`` is the compiled base of ``ddzcore.game.base.GameBase``: it
holds the fields the play phase changes (the phase, the seat to act, the
trick, the bomb and play counts, the winner and the history) and the
hands as card words in a native ``State`` (``ddzcore._state``: five seats,
one or two decks), and implements ``is_terminal``, ``current_player``,
``legal_actions`` and ``apply`` for the play phase, so that a Python loop
of ``legal_actions()`` and ``apply()`` makes one C call each per move: the
moves come from the kernel's generator straight into a ``MoveList``; a
``Move`` is checked with the kernel's predicates (cards in hand, a valid
reading, beating the move to beat) and played without Python frames or a
new ``Hand``.  The flow phases list and check their actions through the
class's table of legal flow actions (``_FLOW_TABLE``) before the Python
game's ``_flow`` runs.  Everything else (text, moves of other types, the
reasons a move is illegal, flow phases without a table entry) goes to the
Python game's methods: ``_flow_legal``, ``_apply_other``, ``_push_move``,
``_why_illegal``, ``_doubling`` and ``_marked_played``.

Hands: ``_hands`` reads them as a new list of ``Hand`` objects (and takes
such a list); ``_word(p)`` is seat ``p``'s card word and ``_add_word(p,
w)`` adds ``w`` to it (subtracts when negative).  ``deal_perm(rng, n)``
draws a deal's permutation exactly as ``rng.permutation(n)`` followed by
``rng.random()`` does, from the generator's C interface; ``cards_word``
is the card word of card ids.

This module imports nothing from the Python layer: the game class names
its move, move-list and hand types (``_MOVE``, ``_MOVES``, ``_HAND``) and its constants
(``PLAYERS``, ``_DECKS``, ``_P_PLAY``, ``_P_END``, ``_MARKED``, ``_ACTION``,
``_FLOW_TABLE``), read once per game.
"""

from cpython.pycapsule cimport PyCapsule_GetPointer
from libc.stdint cimport uint64_t
from libc.string cimport memcpy
from numpy.random cimport bitgen_t

from ddzcore.bits cimport u64, contains, info_combo, is_bomb_combo, C_PASS, C_SOFT_BOMB
from ddzcore._kernel cimport beats, valid_reading
from ddzcore._movelist cimport checked_codes, generated, move_codes
from ddzcore._state cimport State

from ddzcore._errors import IllegalActionError, InvalidMoveError

#: The Python-visible fields ``GameCore`` holds (``GameBase.copy`` copies
#: them with the slots; ``_copy_core`` copies the hands).
CORE_FIELDS = ("_ph", "_cur", "_flags", "_prules", "_last", "_lastp", "_bombs", "_soft", "_plays",
               "_winner", "_hist")

cdef object _object_new = object.__new__


cdef inline uint64_t _interval(bitgen_t* bg, uint64_t mx) noexcept:
    """numpy's ``random_interval``: uniform in 0..mx by masked rejection."""
    cdef uint64_t mask = mx, v
    if mx == 0:
        return 0
    mask |= mask >> 1
    mask |= mask >> 2
    mask |= mask >> 4
    mask |= mask >> 8
    mask |= mask >> 16
    mask |= mask >> 32
    if mx <= 0xFFFFFFFF:
        v = bg.next_uint32(bg.state) & mask
        while v > mx:
            v = bg.next_uint32(bg.state) & mask
    else:
        v = bg.next_uint64(bg.state) & mask
        while v > mx:
            v = bg.next_uint64(bg.state) & mask
    return v


def deal_perm(rng, int n):
    """``(rng.permutation(n).tolist(), rng.random())`` from a
    ``numpy.random.Generator``: the same draws in the same order (numpy's
    Fisher-Yates shuffle of ``arange(n)``, then one double), without the
    arrays; ``n`` at most 108 (two decks).  The generator's lock is held."""
    cdef long perm[108]
    cdef long i, j, t
    cdef double u
    cdef bitgen_t* bg
    if not 0 < n <= 108:
        raise ValueError(f"n must be 1..108, not {n}")
    bitgen = rng.bit_generator
    bg = <bitgen_t*>PyCapsule_GetPointer(bitgen.capsule, "BitGenerator")
    for i in range(n):
        perm[i] = i
    with bitgen.lock:
        for i in range(n - 1, 0, -1):
            j = <long>_interval(bg, <uint64_t>i)
            t = perm[i]
            perm[i] = perm[j]
            perm[j] = t
        u = bg.next_double(bg.state)
    return [perm[i] for i in range(n)], u


def cards_word(cards):
    """The card word (ranks) of card ids (0-53, or 0-107 with two decks: id %
    54; rank id // 4, the jokers 13 and 14; docs/rules.md §1)."""
    cdef u64 w = 0
    cdef long c
    for x in cards:
        c = x
        if not 0 <= c < 108:
            raise ValueError(f"{x!r} is not a card id (0-107)")
        c %= 54
        w += (<u64>1) << (4 * (c >> 2 if c < 53 else 14))
    return w


cdef class GameCore:
    """The compiled base of the games (see the module docstring); not used alone."""

    cdef public int _ph, _cur, _flags, _lastp, _bombs, _soft
    cdef public object _prules, _last, _plays, _winner, _hist
    cdef State _s               # the hands (hand[0 .. players - 1]); the rest unused
    cdef int _play_ph, _end_ph, _players, _decks
    cdef bint _plain            # moves are recorded as given (no marked-face cards: three players)
    cdef object _move_t, _moves_t, _hand_t, _action_t, _flow_table

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
        self._action_t = t._ACTION
        self._flow_table = t._FLOW_TABLE
        self._lastp = -1

    # -- the hands ------------------------------------------------------------------------
    cdef object _new_hand(self, u64 word):
        hand = _object_new(self._hand_t)
        hand._word = word
        hand._decks = self._decks
        return hand

    @property
    def _hands(self):
        """The hands, a new list of ``Hand`` (seat order); assign a list of ``Hand`` to set them."""
        return [self._new_hand(self._s.hand[s]) for s in range(self._players)]

    @_hands.setter
    def _hands(self, hands):
        self._set_words([h._word for h in hands])

    def _set_words(self, words):
        """Set every seat's hand from its card word (a sequence of one int a seat)."""
        cdef int s
        cdef u64 w[5]
        if len(words) != self._players:
            raise ValueError(f"{self._players} hands, not {len(words)}")
        for s in range(self._players):
            w[s] = words[s]
        memcpy(self._s.hand, w, sizeof(w[0]) * self._players)

    def _word(self, int p):
        """Seat ``p``'s card word."""
        if not 0 <= p < self._players:
            raise IndexError(p)
        return self._s.hand[p]

    def _add_word(self, int p, word):
        """Add the card word ``word`` to seat ``p``'s hand (subtract it when negative)."""
        if not 0 <= p < self._players:
            raise IndexError(p)
        if word >= 0:
            self._s.hand[p] += <u64>word
        else:
            self._s.hand[p] -= <u64>(-word)

    def _copy_core(self, GameCore g):
        """Copy the native fields (the hands) into ``g``, a game of the same class."""
        g._s = self._s

    # -- the OpenSpiel-like vocabulary ----------------------------------------------------
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
            if self._flow_table is not None:
                t = self._flow_table[self._ph]
                if t is not None:
                    return list(<tuple>t)
            return self._flow_legal()
        p = self._cur
        if p != self._lastp:
            move_codes(self._last, &lc, &li)
        return generated(self._moves_t, self._s.hand[p], lc, li, self._flags, self._prules)

    def apply(self, action):
        """Apply the current player's action (a flow action, a ``Move``, or
        text that ``parse_action`` reads).  Raises ``IllegalActionError`` (a
        ``ValueError``) for an action that is not legal here (docs/rules.md
        §3), a ``Move`` whose record is not two card/info words (one forged
        with ``object.__new__``) or a pass holding cards included, or
        ``InvalidMoveError`` for unreadable text; the game is then unchanged."""
        cdef int p
        cdef u64 c, i, lc, li
        if self._ph != self._play_ph:
            if type(action) is self._action_t:  # a flow action as listed: checked against the legal ones
                t = None if self._flow_table is None else self._flow_table[self._ph]
                if t is None:
                    t = self._flow_legal()
                if action in t:
                    self._flow(action)
                    return
            self._apply_other(action)  # text, ints, what is not legal (and its error)
            return
        if type(action) is not self._move_t and not isinstance(action, self._move_t):
            self._apply_other(action)
            return
        p = self._cur
        checked_codes(action, &c, &i, IllegalActionError)
        if info_combo(i) != C_PASS:
            if not contains(self._s.hand[p], c) or not valid_reading(c, i, self._flags):
                raise IllegalActionError(self._why_illegal(action))
            if p != self._lastp:
                move_codes(self._last, &lc, &li)
                if not beats(c, i, lc, li, self._flags):
                    raise IllegalActionError(self._why_illegal(action))
        elif p == self._lastp or c != 0 or i != 0:
            raise IllegalActionError(self._why_illegal(action))
        if self._plain and type(action) is self._move_t:
            self._step(p, action, 0)
        else:
            self._push_move(p, action)

    def _play(self, int p, move, int k):
        """The play step (docs/rules.md §3): ``move`` (as recorded) leaves
        seat ``p``'s hand, becomes the move to beat, and the turn passes on;
        ``k`` marked-face cards are among its cards (five players).  Reached
        by ``push`` unchecked: ``InvalidMoveError``, the game unchanged, for
        a move whose record is not two card/info words (a forged ``Move``)."""
        cdef u64 c, i
        checked_codes(move, &c, &i, InvalidMoveError)
        self._step(p, move, k)

    cdef int _step(self, int p, move, int k) except -1:
        cdef u64 c, i, h
        cdef int combo
        self._hist.append((p, move, self._last, self._lastp, k))
        move_codes(move, &c, &i)
        combo = info_combo(i)
        if combo != C_PASS:
            h = self._s.hand[p] - c
            self._s.hand[p] = h
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
