"""The one injectable source of randomness: attack dice and the d12 effect die.

An attack die has six faces: two blanks, a normal 1, a normal 2, a critical 1
and a critical 2.  `SeededDice` rolls from a seeded generator; `ScriptedDice`
replays a script and fails loudly when it runs out or is given a bad face.
"""
from __future__ import annotations

import random
from dataclasses import field
from typing import Iterable, Optional, Union

from ..dsl.frozen import light_dataclass  # @dataclass, made without compiling source text


@light_dataclass(frozen=True)
class Face:
    value: int  # 0 for blank
    critical: bool = False
    # how the face is written ("-", "1", "2*"): worked out as the face is made (a face never changes), so
    # every roll's line reads it without a call per die; neither compared nor hashed (it follows the rest)
    text: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "text", "-" if self.value == 0 else f"{self.value}{'*' if self.critical else ''}")

    def __str__(self) -> str:
        return self.text

    def to_json(self):
        return str(self)


BLANK = Face(0)
ATTACK_FACES = (BLANK, BLANK, Face(1), Face(2), Face(1, True), Face(2, True))  # (six: SeededDice draws 3 bits)


class DiceError(Exception):
    """The dice source cannot give the roll asked for (script exhausted or malformed)."""


def parse_face(v: Union[str, int, Face]) -> Face:
    if isinstance(v, Face):
        return v
    if isinstance(v, bool):
        raise DiceError(f"bad attack die face {v!r}")
    if isinstance(v, int):
        if v in (0, 1, 2):
            return Face(v)
        raise DiceError(f"bad attack die face {v!r}: use 0 (or -), 1, 2, 1* or 2*")
    s = str(v).strip().lower()
    if s in ("-", "0", "blank", "b", ""):
        return BLANK
    crit = s.endswith("*") or s.endswith("c")
    s = s.rstrip("*c")
    if s in ("1", "2"):
        return Face(int(s), crit)
    raise DiceError(f"bad attack die face {v!r}: use 0 (or -), 1, 2, 1* or 2*")


class Dice:
    """Interface: every roll of the game goes through one of these."""

    def attack(self, count: int) -> list[Face]:
        raise NotImplementedError

    def d12(self) -> int:
        raise NotImplementedError


class SeededDice(Dice):
    def __init__(self, seed: Optional[int] = 0):
        self.seed = seed
        self.rng = random.Random(seed)

    # random.Random's choice(ATTACK_FACES) and randint(1, 12), written out: each is its
    # `_randbelow(n)` (getrandbits of n's bit length, again while not below n), two and three Python
    # calls a die fewer; the same draws from the generator, so the same rolls for a seed
    def attack(self, count: int) -> list[Face]:
        bits = self.rng.getrandbits
        out = []
        for _ in range(count):
            r = bits(3)  # (len(ATTACK_FACES) == 6: 3 bits)
            while r >= 6:
                r = bits(3)
            out.append(ATTACK_FACES[r])
        return out

    def d12(self) -> int:
        bits = self.rng.getrandbits
        r = bits(4)  # (12 values: 4 bits)
        while r >= 12:
            r = bits(4)
        return 1 + r


class ScriptedDice(Dice):
    """Replays scripted rolls; asking for a roll that was not scripted raises DiceError.

    `attack` is a flat or nested list of faces (a nested list is one roll, for
    readability; it is flattened).  `d12` is a list of effect die results.
    If `fallback` is given, rolls beyond the script come from it instead.
    """

    def __init__(self, attack: Iterable = (), d12: Iterable[int] = (), fallback: Optional[Dice] = None):
        self._attack: list[Face] = []
        for item in attack:
            if isinstance(item, (list, tuple)):
                self._attack.extend(parse_face(f) for f in item)
            else:
                self._attack.append(parse_face(item))
        self._d12: list[int] = []
        for v in d12:
            if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 12:
                raise DiceError(f"bad effect die value {v!r}: must be 1 to 12")
            self._d12.append(v)
        self.fallback = fallback

    def attack(self, count: int) -> list[Face]:
        if len(self._attack) < count:
            if self.fallback is not None:
                got, self._attack = self._attack, []
                return got + self.fallback.attack(count - len(got))
            raise DiceError(f"scripted attack dice ran out: needed {count}, {len(self._attack)} left")
        got, self._attack = self._attack[:count], self._attack[count:]
        return got

    def d12(self) -> int:
        if not self._d12:
            if self.fallback is not None:
                return self.fallback.d12()
            raise DiceError("scripted effect die rolls ran out")
        return self._d12.pop(0)

    @property
    def unused(self) -> tuple[int, int]:
        return len(self._attack), len(self._d12)
