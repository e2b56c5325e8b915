"""Multiplier, stakes and bean settlement (docs/rules.md §5, §6).

Units used throughout:

- a *multiplier* (倍数) is a plain integer factor;
- *points* (分) are ``base × multiplier × doubling factors``: the per-farmer
  stake X of docs/rules.md §6, and what ``Game.returns()`` reports (zero-sum);
- *beans* (欢乐豆) are points × the room coefficient N, moved between the
  players, minus the room's rake A.

Laizi rooms (docs/rules.md §7, ``laizi=True`` below): the per-farmer points
X are multiplied by ``LAIZI_COEFFICIENT`` (1/4) and each winner's gain is
capped at ``LAIZI_POINT_CAP`` (10000), so points are exact ``Fraction``
values (never floats: no drift); beans stay whole numbers, each transfer
X × N rounded down.

Everything here is pure: ``Game.settlement()`` gathers the facts of a game
and calls ``settle_game`` / ``settle_escape`` / ``settle_no_landlord``; the
functions can also be called directly (the tests do).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from fractions import Fraction
from typing import Any, Optional, Sequence, Union

from ..errors import InvalidArgumentError, record_errors

__all__ = [
    "Room",
    "Multiplier",
    "Settlement",
    "combine_shows",
    "escape_multiplier",
    "escape_penalty",
    "LAIZI_COEFFICIENT",
    "LAIZI_POINT_CAP",
    "settle_game",
    "settle_escape",
    "settle_no_landlord",
    "TITLES",
    "title",
]

Beans = Optional[Sequence[int]]
#: Points: an ``int`` in happy rooms, an exact ``Fraction`` in laizi rooms.
Points = Union[int, Fraction]

#: The laizi coefficient (癞子系数, docs/rules.md §7): laizi points are X × 1/4.
LAIZI_COEFFICIENT = Fraction(1, 4)
#: The laizi cap on what one winner gains per game, in points (docs/rules.md §7).
LAIZI_POINT_CAP = 10000


def _check_int(name: str, v: object, low: int) -> None:
    if not isinstance(v, int) or isinstance(v, bool) or v < low:
        raise InvalidArgumentError(f"Room.{name} must be an int >= {low}, not {v!r}")


@dataclass(frozen=True)
class Room:
    """A game room (房间): how points become beans (docs/rules.md §5-6).

    - ``coefficient``: N, beans per point (房间系数).
    - ``rake``: A, beans the room takes from each player after every settled
      game (系统回收), never taking a player below zero.
    - ``initial_multiplier``: the room's initial multiplier (初始倍数).
    - ``double_threshold``: beans a player must hold *more than* for doubling
      (加倍) eligibility (docs/rules.md §5).
    - ``winner_cap``: a winner cannot win more beans than it brought to the
      table (docs/rules.md §6 option, on by default).

    Raises ``InvalidArgumentError`` (a ``ValueError``) for a negative or non-integer field
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
            raise InvalidArgumentError(f"Room.winner_cap must be True or False, not {self.winner_cap!r}")

    def may_double(self, seat: int, landlord: int, beans: Beans) -> bool:
        """Whether ``seat`` may double (docs/rules.md §5): a landlord only if every
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
    """The game multiplier's breakdown (docs/rules.md §6-7):
    ``initial × 2^robs × 2^bombs × 4^big_bombs × show × (2 if spring or anti-spring)``.

    ``robs`` counts 抢地主 (including a rob back), ``bombs`` the bombs and
    rockets played that double the multiplier (all of them in happy rules
    and under the ``"plain"`` laizi scoring; the soft bombs under the laizi
    table), ``big_bombs`` those that multiply it by 4 (laizi table, docs/rules.md
    §7: hard bombs, pure wild bombs and rockets; otherwise 0), ``show`` is
    the combined show-cards multiplier (1 when nobody showed).  ``int(m)``
    and ``m.total`` give the product.
    """

    initial: int = 1
    robs: int = 0
    bombs: int = 0
    show: int = 1
    spring: bool = False
    anti_spring: bool = False
    big_bombs: int = 0

    @property
    def total(self) -> int:
        """The whole multiplier (an integer factor)."""
        shift = self.robs + self.bombs + 2 * self.big_bombs + (self.spring or self.anti_spring)
        return (self.initial << shift) * self.show

    def __int__(self) -> int:
        return self.total


def combine_shows(shows: Sequence[int], how: str = "max") -> int:
    """The show-cards multiplier of several players' shows (docs/rules.md §5).

    ``shows`` holds each player's show multiplier (0 = did not show);
    ``how`` is ``"max"`` (happy rules) or ``"product"`` (laizi rules).
    Returns 1 when nobody showed.  Raises ``InvalidArgumentError`` for another ``how``.
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
    raise InvalidArgumentError(f"show combining must be 'max' or 'product', not {how!r}")


def escape_multiplier(robs: int, show: int, bombs: int, big_bombs: int = 0) -> int:
    """M of the escape formula (docs/rules.md §6): ``2^robs × show × 2^bombs
    × 4^big_bombs``, where the bombs are the bombs of the deal (every bomb
    and rocket each hand could form as dealt, played or not): ``bombs`` those
    worth x2 (every bomb in happy rooms; soft bombs under the laizi table),
    ``big_bombs`` those worth x4 (laizi table: hard, pure wild, rocket).
    The room's initial multiplier and doubling are left out."""
    return show << (robs + bombs + 2 * big_bombs)


def escape_penalty(landlord: bool, stake: int, m: int) -> int:
    """Points a happy-room escaper pays (逃跑, docs/rules.md §6).

    ``stake``: S, the escaper's points per unit of multiplier in a normal
    loss (``base × initial multiplier × its doubling factor × each
    opponent's``, summed over the opponents: 2 × base for a landlord without
    doubling, base for a farmer); ``m``: M (``escape_multiplier``).  A
    landlord pays ``20 × S`` if M < 10, else ``4 × S × M``; a farmer
    ``10 × S`` or ``2 × S × M`` (exactly 10 takes the second branch)."""
    if landlord:
        return 20 * stake if m < 10 else 4 * stake * m
    return 10 * stake if m < 10 else 2 * stake * m


@dataclass(frozen=True)
class Settlement:
    """The result of a game in points and beans (docs/rules.md §6).

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
    - ``laizi``: settled as a laizi room (docs/rules.md §7): ``stakes`` and
      ``points`` are exact ``Fraction`` values, X already multiplied by
      ``LAIZI_COEFFICIENT`` and each winner's gain capped at
      ``LAIZI_POINT_CAP`` (an escape penalty is 4 or 2 times such a loss).
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
    stakes: tuple[Points, Points, Points]
    points: tuple[Points, Points, Points]
    transfers: tuple[int, int, int]
    rake: tuple[int, int, int]
    net: tuple[int, int, int]
    escape_multiplier: Optional[int] = None
    laizi: bool = False
    spring: bool = field(init=False, default=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "spring", self.multiplier.spring or self.multiplier.anti_spring)

    @property
    def landlord_won(self) -> Optional[bool]:
        """True if the landlord's side won, False if the farmers', None with no landlord."""
        if self.landlord is None or not self.winners:
            return None
        return self.landlord in self.winners

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (lists for tuples; the laizi fields only when set)."""
        d = asdict(self)
        for k, v in d.items():
            if isinstance(v, tuple):
                d[k] = list(v)
        if not d["laizi"]:
            del d["laizi"]
        if not d["multiplier"]["big_bombs"]:
            del d["multiplier"]["big_bombs"]
        for k in ("stakes", "points"):
            d[k] = [_points_json(v) for v in d[k]]
        return d

    @classmethod
    @record_errors
    def from_dict(cls, d: dict[str, Any]) -> "Settlement":
        """The inverse of ``to_dict``.  Raises ``RecordError`` for a bad dict
        (not a dict, a missing key, a field of the wrong type)."""
        kw: dict[str, Any] = {k: (tuple(v) if isinstance(v, list) else v) for k, v in d.items() if k != "spring"}
        kw["multiplier"] = Multiplier(**d["multiplier"])
        if d.get("laizi"):
            for k in ("stakes", "points"):
                kw[k] = tuple(Fraction(v) for v in d[k])
        return cls(**kw)


def _points_json(v: Points) -> "int | float | str":
    """Points in JSON: an int as itself; a laizi ``Fraction`` as a float when
    that is exact (a power-of-two denominator, e.g. 2.75), else as the text
    ``"10000/3"`` (``Fraction`` reads both back exactly)."""
    if isinstance(v, Fraction):
        d = v.denominator
        return float(v) if d & (d - 1) == 0 else f"{v.numerator}/{d}"
    return v


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
    is a single player (docs/rules.md §6).

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


def _finish(transfers: list[int], room: Room, beans: Beans) -> tuple[tuple[int, ...], ...]:
    """Rake after transfers, never below zero (docs/rules.md §6 decision), and the net per seat."""
    a = room.rake
    if beans is None:
        rake = [a] * len(transfers)
    else:
        rake = [min(a, b + t) for b, t in zip(beans, transfers)]
    net = [t - r for t, r in zip(transfers, rake)]
    return tuple(transfers), tuple(rake), tuple(net)


def _check_beans(beans: Beans) -> Beans:
    if beans is None:
        return None
    b = list(beans)
    if len(b) != 3 or any(not isinstance(x, int) or isinstance(x, bool) or x < 0 for x in b):
        raise InvalidArgumentError(f"beans must be three ints >= 0 (or None), not {beans!r}")
    return b


def settle_game(landlord: int, landlord_won: bool, base: int, multiplier: Multiplier,
                doubles: Sequence[int] = (1, 1, 1), room: Optional[Room] = None,
                beans: Beans = None, laizi: bool = False) -> Settlement:
    """Settle a finished game (docs/rules.md §5-6).

    ``landlord``: seat 0-2; ``landlord_won``: which side went out first;
    ``base``: base score (points); ``multiplier``: the breakdown;
    ``doubles``: per-seat doubling factors (1 or 2); ``room``: N, A, the cap
    (default ``Room()``: N = 1, no rake); ``beans``: each player's carried
    beans before the game, or ``None`` for no floors and caps.

    Per farmer f, ``X_f = base × multiplier × doubles[f] × doubles[landlord]``
    points; the landlord's stake is ``X_1 + X_2``.  Beans: a loser pays
    ``X × N`` (floored at what it has), a winner receives what is paid
    (capped by what it carried), then every player pays the rake A.

    ``laizi`` (docs/rules.md §7): X is then multiplied by
    ``LAIZI_COEFFICIENT`` (1/4) and no winner gains more than
    ``LAIZI_POINT_CAP`` (10000) points: a winning farmer's X is capped, a
    winning landlord's total is, each farmer's share shrinking in
    proportion; stakes and points are exact ``Fraction`` values; each
    transfer X × N is rounded down to whole beans (the landlord's is the
    sum of the two).

    Raises ``InvalidArgumentError`` (a ``ValueError``) for a bad seat, doubling factor or beans list.
    """
    room = room or Room()
    beans = _check_beans(beans)
    if laizi:
        return _settle_laizi_game(landlord, landlord_won, base, multiplier, doubles, room, beans)
    if landlord not in (0, 1, 2):
        raise InvalidArgumentError(f"landlord must be a seat 0-2, not {landlord!r}")
    dbl = tuple(doubles)
    if len(dbl) != 3 or any(d not in (1, 2) for d in dbl):
        raise InvalidArgumentError(f"doubling factors must be three values of 1 or 2, not {doubles!r}")
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


def _laizi_points(landlord_won: bool, x: dict[int, int]) -> dict[int, Fraction]:
    """Each farmer's points in a laizi room (docs/rules.md §7): ``x[f]`` is
    farmer f's raw X (``base × multiplier × doubling``), worth X × 1/4; then
    no winner gains more than ``LAIZI_POINT_CAP``: a winning farmer's X is
    capped, a winning landlord's total is, each farmer's share shrinking in
    proportion (so losers pay only what the winners receive)."""
    pts = {f: v * LAIZI_COEFFICIENT for f, v in x.items()}
    cap = LAIZI_POINT_CAP
    if landlord_won:
        total = sum(pts.values())
        if total > cap:
            pts = {f: p * cap / total for f, p in pts.items()}
    else:
        pts = {f: min(p, Fraction(cap)) for f, p in pts.items()}
    return pts


def _beans_of(points: Fraction, n: int) -> int:
    """Whole beans for ``points`` at N = ``n`` beans a point, rounded down."""
    return points.numerator * n // points.denominator


def _settle_laizi_game(landlord: int, landlord_won: bool, base: int, multiplier: Multiplier,
                       doubles: Sequence[int], room: Room, beans: Beans) -> Settlement:
    """``settle_game`` for a laizi room (docs/rules.md §7): exact points,
    each winner's gain capped, bean transfers rounded down."""
    s = settle_game(landlord, landlord_won, base, multiplier, doubles, None, None)
    farmers = [(landlord + 1) % 3, (landlord + 2) % 3]
    pts = _laizi_points(landlord_won, {f: int(s.stakes[f]) for f in farmers})
    zero = Fraction(0)
    stakes = [zero, zero, zero]
    points = [zero, zero, zero]
    sign = 1 if landlord_won else -1
    for f in farmers:
        stakes[f] = pts[f]
        stakes[landlord] += pts[f]
        points[landlord] += sign * pts[f]
        points[f] -= sign * pts[f]
    n = room.coefficient
    if landlord_won:
        owed = {(f, landlord): _beans_of(pts[f], n) for f in farmers}
        t = _transfers(farmers, [landlord], owed, beans, room.winner_cap)
    else:
        owed = {(landlord, f): _beans_of(pts[f], n) for f in farmers}
        t = _transfers([landlord], farmers, owed, beans, room.winner_cap)
    transfers, rake, net = _finish(t, room, beans)
    return Settlement(landlord, s.winners, None, base, multiplier, s.doubles, tuple(stakes),  # type: ignore[arg-type]
                      tuple(points), transfers, rake, net, laizi=True)  # type: ignore[arg-type]


def settle_escape(escaper: int, landlord: Optional[int], base: int, m: int,
                  multiplier: Optional[Multiplier] = None, doubles: Sequence[int] = (1, 1, 1),
                  room: Optional[Room] = None, beans: Beans = None, laizi: bool = False) -> Settlement:
    """Settle an escape (逃跑, docs/rules.md §6; ``laizi``: §7's scoring).

    ``escaper``: the seat that left; ``landlord``: the landlord's seat, or
    ``None`` before there is one (then the escaper pays as a farmer with
    M = 1, base 1 and no doubling, shared by the other two); ``m``: the
    escape multiplier M (``escape_multiplier``: the bombs of the deal
    counted as played, without the room's initial multiplier and doubling);
    ``doubles``: the doubling factors (1 or 2) chosen so far; ``room``: N,
    A, the room's initial multiplier, the winners' cap.  ``multiplier`` is
    only reported.

    Happy rooms: the penalty is ``escape_penalty(is landlord, S, M)`` points
    with ``S = base × initial × Σ dbl(escaper) × dbl(opponent)`` over the
    opponents.  Laizi rooms: the landlord pays 4 ×, a farmer 2 × the points
    it would lose in a normal loss at multiplier ``initial × M`` under the
    laizi scoring (X × 1/4, each winner's gain capped at 10000 points),
    exact ``Fraction`` points.  The penalty goes to the opposing side, split
    equally; the escaper's teammate neither pays nor receives.  Beans: each
    share × N rounded down, then as in ``settle_game``: floors, the
    winners' cap, the equal split of a short payer, then the rake from
    every player.

    Raises ``InvalidArgumentError`` (a ``ValueError``) for a bad seat, doubling factor or beans list.
    """
    room = room or Room()
    beans = _check_beans(beans)
    if escaper not in (0, 1, 2) or landlord not in (None, 0, 1, 2):
        raise InvalidArgumentError(f"bad escaper {escaper!r} or landlord {landlord!r}")
    dbl = tuple(doubles)
    if len(dbl) != 3 or any(d not in (1, 2) for d in dbl):
        raise InvalidArgumentError(f"doubling factors must be three values of 1 or 2, not {doubles!r}")
    if landlord is None:
        base, m, dbl = 1, 1, (1, 1, 1)
        lord = (escaper + 1) % 3  # charged as a farmer against one landlord
        receivers = [(escaper + 1) % 3, (escaper + 2) % 3]
    else:
        lord = landlord
        receivers = [(escaper + 1) % 3, (escaper + 2) % 3] if escaper == landlord else [landlord]
    unit = base * room.initial_multiplier
    opponents = receivers if escaper == landlord else [lord]
    penalty: Points
    if laizi:
        x = {f: unit * m * dbl[f] * dbl[lord] for f in ((lord + 1) % 3, (lord + 2) % 3)}
        lost = _laizi_points(escaper != lord, x)
        loss = sum(lost.values(), Fraction(0)) if escaper == lord else lost[escaper]
        penalty = (4 if escaper == landlord else 2) * loss
        share: Points = penalty / len(receivers)
    else:
        stake = unit * sum(dbl[escaper] * dbl[o] for o in opponents)
        penalty = escape_penalty(escaper == landlord, stake, m)
        share = penalty // len(receivers)  # happy penalties are even when shared
    zero: Points = Fraction(0) if laizi else 0
    points, stakes = [zero] * 3, [zero] * 3
    points[escaper] = -penalty
    stakes[escaper] = penalty
    for q in receivers:
        points[q] = share
        stakes[q] = share
    n = room.coefficient
    owed = {(escaper, q): _beans_of(Fraction(share), n) for q in receivers}
    t = _transfers([escaper], receivers, owed, beans, room.winner_cap)
    transfers, rake, net = _finish(t, room, beans)
    return Settlement(landlord, tuple(sorted(receivers)), escaper, base, multiplier or Multiplier(),
                      dbl, tuple(stakes), tuple(points),  # type: ignore[arg-type]
                      transfers, rake, net, escape_multiplier=m, laizi=laizi)  # type: ignore[arg-type]


def settle_no_landlord(multiplier: Optional[Multiplier] = None) -> Settlement:
    """The zero settlement of a game that ended with no landlord (the redeal
    cap of docs/rules.md §4 was reached): no points, no beans, no rake."""
    z = (0, 0, 0)
    return Settlement(None, (), None, 1, multiplier or Multiplier(), (1, 1, 1), z, z, z, z, z)


# -- titles --------------------------------------------------------------------

#: Titles (等级) by accumulated points (分), docs/rules.md §6: (threshold, Chinese, English).
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


def title(points: "int | float | Fraction", english: bool = False) -> str:
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


# -- five players (docs/rules.md §8) ------------------------------------------------------

@dataclass(frozen=True)
class FiveMultiplier:
    """The five-player multiplier's breakdown (docs/rules.md §8):
    ``initial × 2^bombs × (2 if a landlord chose to reveal) × (2 if spring)``.

    ``bombs`` counts the doubling bombs played: 5-, 6-, 7- and 8-card bombs,
    three jokers and four jokers (never 4-card bombs or two jokers);
    ``reveal`` is a chosen reveal (亮出身份; counted once however many
    reveal, never for a hidden landlord revealed by playing the twin);
    ``spring`` means the losing side played no card at all.  ``int(m)`` and
    ``m.total`` give the product (an integer factor).
    """

    initial: int = 1
    bombs: int = 0
    reveal: bool = False
    spring: bool = False

    @property
    def total(self) -> int:
        """The whole multiplier (an integer factor)."""
        return self.initial << (self.bombs + self.reveal + self.spring)

    def __int__(self) -> int:
        return self.total


@dataclass(frozen=True)
class FiveSettlement:
    """The result of a five-player game in points and beans (docs/rules.md §8, §6).

    - ``landlords``: the landlords' seats, the open landlord (明地主) first,
      then the hidden landlord (暗地主) if there is one.
    - ``winners``: the seats of the side that went out first.
    - ``base``: the base score (底分, 1).
    - ``multiplier``: the ``FiveMultiplier`` breakdown.
    - ``doubles``: each seat's doubling factor (1 or 2).
    - ``stakes``: points at stake per seat (floats, exact multiples of 0.5):
      a farmer's is the sum over the landlords l of ``S(f, l)``, a
      landlord's the sum over the farmers f, where ``S(f, l) = base ×
      multiplier × dbl(f) × dbl(l)``, halved when there are two landlords.
    - ``points``: signed points per seat (the stakes, + for the winners),
      summing to zero.
    - ``transfers``: signed beans moved between players (sum zero): each
      ``S(f, l) × N`` rounded down to whole beans, after the floors at zero
      and the winners' cap (docs/rules.md §6).
    - ``rake``: beans the room took from each player (each ``>= 0``).
    - ``net``: ``transfers - rake`` per seat, in beans.
    - ``escaped``: the seat that escaped (逃跑), or ``None``; then ``winners``
      is the side that receives the penalty and ``escape_multiplier`` is M.
    """

    landlords: tuple[int, ...]
    winners: tuple[int, ...]
    base: int
    multiplier: FiveMultiplier
    doubles: tuple[int, ...]
    stakes: tuple[float, ...]
    points: tuple[float, ...]
    transfers: tuple[int, ...]
    rake: tuple[int, ...]
    net: tuple[int, ...]
    escaped: Optional[int] = None
    escape_multiplier: Optional[int] = None

    @property
    def landlord_won(self) -> bool:
        """True if the landlords' side went out first."""
        return self.landlords[0] in self.winners

    @property
    def spring(self) -> bool:
        """The losing side played no card (docs/rules.md §8)."""
        return self.multiplier.spring

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (lists for tuples; the escape fields only for an escape)."""
        d = asdict(self)
        for k, v in d.items():
            if isinstance(v, tuple):
                d[k] = list(v)
        if d["escaped"] is None:
            del d["escaped"], d["escape_multiplier"]
        return d

    @classmethod
    @record_errors
    def from_dict(cls, d: dict[str, Any]) -> "FiveSettlement":
        """The inverse of ``to_dict``.  Raises ``RecordError`` for a bad dict
        (not a dict, a missing key, a field of the wrong type)."""
        kw: dict[str, Any] = {k: (tuple(v) if isinstance(v, list) else v) for k, v in d.items()}
        kw["multiplier"] = FiveMultiplier(**d["multiplier"])
        return cls(**kw)


def _side_transfers(n: int, payers: Sequence[int], payees: Sequence[int], owed: dict[tuple[int, int], int],
                    beans: Beans, cap: bool) -> list[int]:
    """Signed bean transfers for debts ``owed[(payer, payee)]`` between two
    sides of any sizes, over ``n`` seats (docs/rules.md §6, generalised for
    docs/rules.md §8).

    Floors: a payer that cannot pay all it owes pays everything it has,
    split equally among its creditors (nobody above its claim).  Winners'
    cap (``cap``): the payments to one payee that exceed its carried beans
    shrink in proportion.  The larger side is settled first: when it pays,
    floors come before the cap; when it receives, the cap comes before the
    floors.  With one player on a side this is exactly the three-player rule
    (several payers: floors then cap; one payer: capped claims, then its
    floor).
    """
    pay = dict(owed)
    if beans is not None:
        def floors() -> None:
            for p in payers:
                claims = [pay[(p, q)] for q in payees]
                if sum(claims) > beans[p]:
                    for q, g in zip(payees, _split_equally(beans[p], claims)):
                        pay[(p, q)] = g

        def caps() -> None:
            if cap:
                for q in payees:
                    for p, g in zip(payers, _scale_to(beans[q], [pay[(p, q)] for p in payers])):
                        pay[(p, q)] = g

        if len(payers) >= len(payees):
            floors()
            caps()
        else:
            caps()
            floors()
    t = [0] * n
    for (p, q), x in pay.items():
        t[p] -= x
        t[q] += x
    return t


def settle_five(landlords: Sequence[int], landlords_won: bool, base: int, multiplier: FiveMultiplier,
                doubles: Sequence[int] = (1, 1, 1, 1, 1), room: Optional[Room] = None,
                beans: Beans = None) -> FiveSettlement:
    """Settle a finished five-player game (docs/rules.md §8, beans as docs/rules.md §6).

    ``landlords``: one or two seats 0-4 (the open landlord first);
    ``landlords_won``: which side went out first; ``base``: base score
    (points); ``multiplier``: the ``FiveMultiplier``; ``doubles``: five
    doubling factors (1 or 2); ``room``: N, A, the winners' cap (default
    ``Room()``: N = 1, no rake); ``beans``: five carried bean counts, or
    ``None`` for no floors and caps.

    For each farmer f and landlord l the stake is ``S(f, l) = base ×
    multiplier × dbl(f) × dbl(l)`` points, halved with two landlords; each
    player wins or loses the sum of its stakes.  Without doubling, two
    landlords: each farmer X, each landlord 1.5X; one landlord: each farmer
    X, the landlord 4X (X = base × multiplier).  Points are floats (exact
    halves).  Beans: the loser of a pair owes ``S(f, l) × N`` rounded down
    to whole beans; floors at zero and the winners' cap as
    ``_side_transfers``; then every player pays the rake A, never below zero.

    Raises ``InvalidArgumentError`` (a ``ValueError``) for bad landlords, doubling factors or beans.
    """
    room = room or Room()
    lords, dbl, beans = _check_five(landlords, doubles, beans)
    farmers = [s for s in range(5) if s not in lords]
    half = len(lords)  # the stake's divisor: 2 with two landlords
    unit = base * multiplier.total
    doubled = {(f, l): unit * dbl[f] * dbl[l] for f in farmers for l in lords}  # 2 × S(f, l) with two landlords
    stakes = [0.0] * 5
    for (f, l), x in doubled.items():
        stakes[f] += x / half
        stakes[l] += x / half
    winners = lords if landlords_won else tuple(farmers)
    points = tuple(s if p in winners else -s for p, s in enumerate(stakes))
    nc = room.coefficient
    if landlords_won:
        owed = {(f, l): x * nc // half for (f, l), x in doubled.items()}
        t = _side_transfers(5, farmers, lords, owed, beans, room.winner_cap)
    else:
        owed = {(l, f): x * nc // half for (f, l), x in doubled.items()}
        t = _side_transfers(5, lords, farmers, owed, beans, room.winner_cap)
    transfers, rake, net = _finish(t, room, beans)
    return FiveSettlement(lords, tuple(sorted(winners)), base, multiplier, dbl, tuple(stakes), points,
                          transfers, rake, net)


def _check_five(landlords: Sequence[int], doubles: Sequence[int], beans: Beans
                ) -> tuple[tuple[int, ...], tuple[int, ...], Beans]:
    """Landlords, doubling factors and beans of a five-player settlement,
    checked.  Raises ``InvalidArgumentError`` naming the bad one."""
    lords = tuple(landlords)
    if not 1 <= len(lords) <= 2 or len(set(lords)) != len(lords) or any(
            not isinstance(s, int) or isinstance(s, bool) or not 0 <= s <= 4 for s in lords):
        raise InvalidArgumentError(f"landlords must be one or two distinct seats 0-4, not {landlords!r}")
    dbl = tuple(doubles)
    if len(dbl) != 5 or any(d not in (1, 2) for d in dbl):
        raise InvalidArgumentError(f"doubling factors must be five values of 1 or 2, not {doubles!r}")
    if beans is not None:
        beans = list(beans)
        if len(beans) != 5 or any(not isinstance(b, int) or isinstance(b, bool) or b < 0 for b in beans):
            raise InvalidArgumentError(f"beans must be five ints >= 0 (or None), not {beans!r}")
    return lords, dbl, beans


def settle_five_escape(escaper: int, landlords: Sequence[int], base: int, m: int,
                       multiplier: Optional[FiveMultiplier] = None, doubles: Sequence[int] = (1, 1, 1, 1, 1),
                       room: Optional[Room] = None, beans: Beans = None) -> FiveSettlement:
    """Settle a five-player escape (逃跑, docs/rules.md §8 with §6's formula).

    ``escaper``: the seat that left (0-4); ``landlords``: one or two seats,
    the open landlord first; ``m``: the escape multiplier M
    (``FiveGame.escape_multiplier``: 2 for every doubling bomb of the deal
    and 2 for a chosen reveal, without the room's initial multiplier and
    doubling); ``doubles``: the doubling factors chosen so far; ``room``:
    N, A, the initial multiplier, the winners' cap.  ``multiplier`` is
    only reported.

    S, the escaper's points per unit of multiplier in a normal loss, is
    ``base × initial × Σ dbl(escaper) × dbl(opponent)`` over its opponents,
    halved with two landlords (the five-player stake): 1.5 × base × initial
    for a landlord with a partner, 4 × for one alone, 1 × for a farmer,
    without doubling.  The penalty is ``escape_penalty(is landlord, S, M)``
    points, shared equally by the opposing side; the escaper's partners
    neither pay nor receive.  Points are floats; beans: each share × N
    rounded down, then floors, the winners' cap and the rake as
    ``settle_five``.

    Raises ``InvalidArgumentError`` for a bad seat, landlords, doubling
    factors or beans.
    """
    room = room or Room()
    lords, dbl, beans = _check_five(landlords, doubles, beans)
    if not isinstance(escaper, int) or isinstance(escaper, bool) or not 0 <= escaper <= 4:
        raise InvalidArgumentError(f"the escaper must be a seat 0-4, not {escaper!r}")
    farmers = [s for s in range(5) if s not in lords]
    lord = escaper in lords
    opponents = farmers if lord else list(lords)
    stake = Fraction(base * room.initial_multiplier * sum(dbl[escaper] * dbl[o] for o in opponents), len(lords))
    penalty = Fraction(escape_penalty(lord, stake, m))  # type: ignore[arg-type]
    share = penalty / len(opponents)
    points = [0.0] * 5
    stakes = [0.0] * 5
    points[escaper], stakes[escaper] = -float(penalty), float(penalty)
    for q in opponents:
        points[q], stakes[q] = float(share), float(share)
    owed = {(escaper, q): _beans_of(share, room.coefficient) for q in opponents}
    t = _side_transfers(5, [escaper], opponents, owed, beans, room.winner_cap)
    transfers, rake, net = _finish(t, room, beans)
    return FiveSettlement(lords, tuple(sorted(opponents)), base, multiplier or FiveMultiplier(), dbl,
                          tuple(stakes), tuple(points), transfers, rake, net, escaped=escaper, escape_multiplier=m)


__all__ += ["FiveMultiplier", "FiveSettlement", "settle_five", "settle_five_escape"]
