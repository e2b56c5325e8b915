"""Multiplier, stakes and bean settlement (RULES.md sections 5 and 6).

Units used throughout:

- a *multiplier* (倍数) is a plain integer factor;
- *points* (分) are ``base × multiplier × doubling factors``: the per-farmer
  stake X of RULES.md 6, and what ``Game.returns()`` reports (zero-sum);
- *beans* (欢乐豆) are points × the room coefficient N, moved between the
  players, minus the room's rake A.

Everything here is pure: ``Game.settlement()`` gathers the facts of a game
and calls ``settle_game`` / ``settle_escape`` / ``settle_no_landlord``; the
functions can also be called directly (the tests do).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Optional, Sequence

__all__ = [
    "Room",
    "Multiplier",
    "Settlement",
    "combine_shows",
    "escape_multiplier",
    "escape_penalty",
    "settle_game",
    "settle_escape",
    "settle_no_landlord",
    "TITLES",
    "title",
]

Beans = Optional[Sequence[int]]


def _check_int(name: str, v: object, low: int) -> None:
    if not isinstance(v, int) or isinstance(v, bool) or v < low:
        raise ValueError(f"Room.{name} must be an int >= {low}, not {v!r}")


@dataclass(frozen=True)
class Room:
    """A game room (房间): how points become beans (RULES.md 5-6).

    - ``coefficient``: N, beans per point (房间系数).
    - ``rake``: A, beans the room takes from each player after every settled
      game (系统回收), never taking a player below zero.
    - ``initial_multiplier``: the room's initial multiplier (初始倍数).
    - ``double_threshold``: beans a player must hold *more than* for doubling
      (加倍) eligibility (RULES.md 5).
    - ``winner_cap``: a winner cannot win more beans than it brought to the
      table (RULES.md 6 option, on by default).

    Raises ``ValueError`` for a negative or non-integer field
    (``coefficient`` and ``initial_multiplier`` must be at least 1).
    """

    coefficient: int = 1
    rake: int = 0
    initial_multiplier: int = 1
    double_threshold: int = 0
    winner_cap: bool = True

    def __post_init__(self) -> None:
        _check_int("coefficient", self.coefficient, 1)
        _check_int("rake", self.rake, 0)
        _check_int("initial_multiplier", self.initial_multiplier, 1)
        _check_int("double_threshold", self.double_threshold, 0)
        if not isinstance(self.winner_cap, bool):
            raise ValueError(f"Room.winner_cap must be True or False, not {self.winner_cap!r}")

    def may_double(self, seat: int, landlord: int, beans: Beans) -> bool:
        """Whether ``seat`` may double (RULES.md 5): a landlord only if every
        player's beans exceed ``double_threshold``, a farmer only if its own
        and the landlord's do.  Unknown beans (``None``) always may."""
        if beans is None:
            return True
        t = self.double_threshold
        if seat == landlord:
            return all(b > t for b in beans)
        return beans[seat] > t and beans[landlord] > t


@dataclass(frozen=True)
class Multiplier:
    """The game multiplier's breakdown (RULES.md 6):
    ``initial × 2^robs × 2^bombs × show × (2 if spring or anti-spring)``.

    ``robs`` counts 抢地主 (including a rob back), ``bombs`` the bombs and
    rockets played, ``show`` is the combined show-cards multiplier (1 when
    nobody showed).  ``int(m)`` and ``m.total`` give the product.
    """

    initial: int = 1
    robs: int = 0
    bombs: int = 0
    show: int = 1
    spring: bool = False
    anti_spring: bool = False

    @property
    def total(self) -> int:
        """The whole multiplier (an integer factor)."""
        return (self.initial << (self.robs + self.bombs + (self.spring or self.anti_spring))) * self.show

    def __int__(self) -> int:
        return self.total


def combine_shows(shows: Sequence[int], how: str = "max") -> int:
    """The show-cards multiplier of several players' shows (RULES.md 5).

    ``shows`` holds each player's show multiplier (0 = did not show);
    ``how`` is ``"max"`` (happy rules) or ``"product"`` (laizi rules).
    Returns 1 when nobody showed.  Raises ``ValueError`` for another ``how``.
    """
    made = [s for s in shows if s]
    if not made:
        return 1
    if how == "max":
        return max(made)
    if how == "product":
        out = 1
        for s in made:
            out *= s
        return out
    raise ValueError(f"show combining must be 'max' or 'product', not {how!r}")


def escape_multiplier(robs: int, show: int, bombs: int) -> int:
    """M of the escape formula (RULES.md 6): ``2^robs × show × 2^bombs``,
    where ``bombs`` counts every bomb and rocket, played or still formable in
    a hand; the room's initial multiplier and doubling are left out."""
    return (show << robs) << bombs


def escape_penalty(landlord: bool, base: int, m: int) -> int:
    """Points an escaper pays (RULES.md 6, happy rules): a landlord
    ``base × 2 × (20 if M < 10 else 4M)``, a farmer
    ``base × (10 if M < 10 else 2M)`` (exactly 10 takes the second branch)."""
    if landlord:
        return base * 2 * (20 if m < 10 else 4 * m)
    return base * (10 if m < 10 else 2 * m)


@dataclass(frozen=True)
class Settlement:
    """The result of a game in points and beans (RULES.md 6).

    - ``landlord``: the landlord's seat (``None`` if nobody became landlord).
    - ``winners``: the seats of the winning side (for an escape, the side
      that receives the penalty; empty for a game with no landlord).
    - ``escaped``: the seat that escaped (逃跑), or ``None``.
    - ``base``: the base score (底分): 1 for a call, the bid under points.
    - ``multiplier``: the ``Multiplier`` breakdown.
    - ``doubles``: each seat's doubling factor (1 or 2).
    - ``stakes``: points at stake per seat: X for each farmer
      (``base × multiplier × own × landlord doubling``), the sum of both for
      the landlord; for an escape, what each seat pays or receives.
    - ``points``: signed points per seat, summing to zero.
    - ``escape_multiplier``: M of the escape formula (escapes only).
    - ``transfers``: signed beans moved between players (sum zero), after
      floors at zero and the winners' cap.
    - ``rake``: beans the room took from each player (each ``>= 0``).
    - ``net``: ``transfers - rake`` per seat, in beans.
    """

    landlord: Optional[int]
    winners: tuple[int, ...]
    escaped: Optional[int]
    base: int
    multiplier: Multiplier
    doubles: tuple[int, int, int]
    stakes: tuple[int, int, int]
    points: tuple[int, int, int]
    transfers: tuple[int, int, int]
    rake: tuple[int, int, int]
    net: tuple[int, int, int]
    escape_multiplier: Optional[int] = None
    spring: bool = field(init=False, default=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "spring", self.multiplier.spring or self.multiplier.anti_spring)

    @property
    def landlord_won(self) -> Optional[bool]:
        """True if the landlord's side won, False if the farmers', None with no landlord."""
        if self.landlord is None or not self.winners:
            return None
        return self.landlord in self.winners

    def to_dict(self) -> dict:
        """A JSON-ready dict (lists for tuples)."""
        d = asdict(self)
        for k, v in d.items():
            if isinstance(v, tuple):
                d[k] = list(v)
        return d

    @classmethod
    def from_dict(cls, d: dict) -> "Settlement":
        """The inverse of ``to_dict``.  Raises ``KeyError``/``TypeError`` for a bad dict."""
        kw = {k: (tuple(v) if isinstance(v, list) else v) for k, v in d.items() if k != "spring"}
        kw["multiplier"] = Multiplier(**d["multiplier"])
        return cls(**kw)


# -- bean transfers ----------------------------------------------------------

def _split_equally(avail: int, claims: list[int]) -> list[int]:
    """Share ``avail`` beans equally among claimants, nobody above its claim
    (water filling); an indivisible remainder goes one bean at a time to the
    earliest claimants in the given order."""
    give = [0] * len(claims)
    active = [j for j, c in enumerate(claims) if c > 0]
    while avail > 0 and active:
        share = avail // len(active)
        if share == 0:
            for j in active[:avail]:
                give[j] += 1
            break
        for j in active:
            g = min(share, claims[j] - give[j])
            give[j] += g
            avail -= g
        active = [j for j in active if give[j] < claims[j]]
    return give


def _scale_to(limit: int, pays: list[int]) -> list[int]:
    """Shrink payments in proportion so that they sum to ``limit`` (largest
    remainders take the leftover beans, earlier payers first on ties)."""
    total = sum(pays)
    if total <= limit:
        return pays
    exact = [p * limit for p in pays]
    out = [e // total for e in exact]
    left = limit - sum(out)
    order = sorted(range(len(pays)), key=lambda i: (-(exact[i] % total), i))
    for i in order[:left]:
        out[i] += 1
    return out


def _transfers(payers: Sequence[int], payees: Sequence[int], owed: dict[tuple[int, int], int],
               beans: Beans, cap: bool) -> list[int]:
    """Signed bean transfers for debts ``owed[(payer, payee)]`` where one side
    is a single player (RULES.md 6).

    Several payers, one payee: each pays what it owes but never more than it
    has; if the payee's winnings would exceed its carried beans (``cap``),
    every payment shrinks in proportion.  One payer, several payees: each
    claim is capped by the payee's carried beans (``cap``); a payer that
    cannot cover all claims pays everything it has, split equally.
    """
    t = [0, 0, 0]
    if len(payees) == 1:
        payee = payees[0]
        pays = [owed[(p, payee)] for p in payers]
        if beans is not None:
            pays = [min(x, beans[p]) for x, p in zip(pays, payers)]
            if cap:
                pays = _scale_to(beans[payee], pays)
        for x, p in zip(pays, payers):
            t[p] -= x
            t[payee] += x
        return t
    payer = payers[0]
    claims = [owed[(payer, q)] for q in payees]
    if beans is not None:
        if cap:
            claims = [min(c, beans[q]) for c, q in zip(claims, payees)]
        if sum(claims) > beans[payer]:
            claims = _split_equally(beans[payer], claims)
    for c, q in zip(claims, payees):
        t[payer] -= c
        t[q] += c
    return t


def _finish(transfers: list[int], room: Room, beans: Beans) -> tuple[tuple[int, int, int], ...]:
    """Rake after transfers, never below zero (RULES.md 6 decision)."""
    a = room.rake
    if beans is None:
        rake = [a, a, a]
    else:
        rake = [min(a, b + t) for b, t in zip(beans, transfers)]
    net = [t - r for t, r in zip(transfers, rake)]
    return tuple(transfers), tuple(rake), tuple(net)  # type: ignore[return-value]


def _check_beans(beans: Beans) -> Beans:
    if beans is None:
        return None
    b = list(beans)
    if len(b) != 3 or any(not isinstance(x, int) or isinstance(x, bool) or x < 0 for x in b):
        raise ValueError(f"beans must be three ints >= 0 (or None), not {beans!r}")
    return b


def settle_game(landlord: int, landlord_won: bool, base: int, multiplier: Multiplier,
                doubles: Sequence[int] = (1, 1, 1), room: Optional[Room] = None,
                beans: Beans = None) -> Settlement:
    """Settle a finished game (RULES.md 5-6).

    ``landlord``: seat 0-2; ``landlord_won``: which side went out first;
    ``base``: base score (points); ``multiplier``: the breakdown;
    ``doubles``: per-seat doubling factors (1 or 2); ``room``: N, A, the cap
    (default ``Room()``: N = 1, no rake); ``beans``: each player's carried
    beans before the game, or ``None`` for no floors and caps.

    Per farmer f, ``X_f = base × multiplier × doubles[f] × doubles[landlord]``
    points; the landlord's stake is ``X_1 + X_2``.  Beans: a loser pays
    ``X × N`` (floored at what it has), a winner receives what is paid
    (capped by what it carried), then every player pays the rake A.

    Raises ``ValueError`` for a bad seat, doubling factor or beans list.
    """
    room = room or Room()
    beans = _check_beans(beans)
    if landlord not in (0, 1, 2):
        raise ValueError(f"landlord must be a seat 0-2, not {landlord!r}")
    dbl = tuple(doubles)
    if len(dbl) != 3 or any(d not in (1, 2) for d in dbl):
        raise ValueError(f"doubling factors must be three values of 1 or 2, not {doubles!r}")
    farmers = [(landlord + 1) % 3, (landlord + 2) % 3]
    total = multiplier.total
    x = {f: base * total * dbl[f] * dbl[landlord] for f in farmers}
    stakes = [0, 0, 0]
    points = [0, 0, 0]
    for f in farmers:
        stakes[f] = x[f]
        stakes[landlord] += x[f]
        sign = 1 if landlord_won else -1
        points[landlord] += sign * x[f]
        points[f] -= sign * x[f]
    n = room.coefficient
    if landlord_won:
        owed = {(f, landlord): x[f] * n for f in farmers}
        t = _transfers(farmers, [landlord], owed, beans, room.winner_cap)
        winners: tuple[int, ...] = (landlord,)
    else:
        owed = {(landlord, f): x[f] * n for f in farmers}
        t = _transfers([landlord], farmers, owed, beans, room.winner_cap)
        winners = tuple(sorted(farmers))
    transfers, rake, net = _finish(t, room, beans)
    return Settlement(landlord, winners, None, base, multiplier, dbl, tuple(stakes),  # type: ignore[arg-type]
                      tuple(points), transfers, rake, net)  # type: ignore[arg-type]


def settle_escape(escaper: int, landlord: Optional[int], base: int, m: int,
                  multiplier: Optional[Multiplier] = None, doubles: Sequence[int] = (1, 1, 1),
                  room: Optional[Room] = None, beans: Beans = None) -> Settlement:
    """Settle an escape (逃跑, RULES.md 6, happy rules).

    ``escaper``: the seat that left; ``landlord``: the landlord's seat, or
    ``None`` before there is one (then the escaper pays as a farmer with
    M = 1 and base 1, shared by the other two); ``m``: the escape multiplier
    M (see ``escape_multiplier``).  The penalty ``escape_penalty(...)``
    points go to the opposing side, split equally; the escaper's teammate
    neither pays nor receives.  Beans as in ``settle_game``: floors, the
    winners' cap, the equal split of a short payer, then the rake from
    every player.  ``multiplier``/``doubles`` are only reported.

    Raises ``ValueError`` for a bad seat or beans list.
    """
    room = room or Room()
    beans = _check_beans(beans)
    if escaper not in (0, 1, 2) or landlord not in (None, 0, 1, 2):
        raise ValueError(f"bad escaper {escaper!r} or landlord {landlord!r}")
    if landlord is None:
        base, m = 1, 1
        penalty = escape_penalty(False, base, m)
        receivers = [(escaper + 1) % 3, (escaper + 2) % 3]
    elif escaper == landlord:
        penalty = escape_penalty(True, base, m)
        receivers = [(escaper + 1) % 3, (escaper + 2) % 3]
    else:
        penalty = escape_penalty(False, base, m)
        receivers = [landlord]
    share = penalty // len(receivers)  # penalties are even when shared
    points = [0, 0, 0]
    stakes = [0, 0, 0]
    points[escaper] = -penalty
    stakes[escaper] = penalty
    for q in receivers:
        points[q] = share
        stakes[q] = share
    n = room.coefficient
    owed = {(escaper, q): share * n for q in receivers}
    t = _transfers([escaper], receivers, owed, beans, room.winner_cap)
    transfers, rake, net = _finish(t, room, beans)
    return Settlement(landlord, tuple(sorted(receivers)), escaper, base, multiplier or Multiplier(),
                      tuple(doubles), tuple(stakes), tuple(points),  # type: ignore[arg-type]
                      transfers, rake, net, escape_multiplier=m)


def settle_no_landlord(multiplier: Optional[Multiplier] = None) -> Settlement:
    """The zero settlement of a game that ended with no landlord (the redeal
    cap of RULES.md 4 was reached): no points, no beans, no rake."""
    z = (0, 0, 0)
    return Settlement(None, (), None, 1, multiplier or Multiplier(), (1, 1, 1), z, z, z, z, z)


# -- titles --------------------------------------------------------------------

#: Titles (等级) by accumulated points (分), seed 000: (threshold, Chinese, English).
TITLES: tuple[tuple[int, str, str], ...] = (
    (0, "包身工", "bonded labourer"),
    (30, "短工", "day labourer"),
    (60, "长工", "farmhand"),
    (90, "佃户", "tenant farmer"),
    (180, "贫农", "poor peasant"),
    (320, "渔夫", "fisherman"),
    (530, "猎人", "hunter"),
    (840, "中农", "middle peasant"),
    (1150, "富农", "rich peasant"),
    (1600, "掌柜", "shopkeeper"),
    (2300, "商人", "merchant"),
    (3450, "衙役", "yamen runner"),
    (5000, "小财主", "petty squire"),
    (6900, "大财主", "great squire"),
    (9200, "小地主", "small landlord"),
    (12600, "大地主", "great landlord"),
    (17700, "知县", "county magistrate"),
    (23000, "通判", "assistant prefect"),
    (32200, "知府", "prefect"),
    (46000, "总督", "viceroy"),
    (69000, "巡抚", "provincial governor"),
    (103000, "丞相", "chancellor"),
    (161000, "帝王", "emperor"),
)


def title(points: int, english: bool = False) -> str:
    """The title (等级) for accumulated ``points`` (分): the highest rank whose
    threshold is reached (``TITLES``; under 30, and any negative total, is
    包身工).  ``english=True`` gives the English name."""
    name = TITLES[0]
    for row in TITLES:
        if points >= row[0]:
            name = row
        else:
            break
    return name[2] if english else name[1]
