"""The parts a game owns and that point back at it (its effects, attack engine and reveal windows).

A part holds its game weakly: a strong link back would make every game a reference cycle, so that a
dropped game waited for the cycle collector and the next one was built in memory the cache had not
seen (docs/engine-speed.md, "A game is no reference cycle"; tests/engine/test_game_freed.py).
"""
from __future__ import annotations

import weakref


class GamePart:
    """A part of one game (engine/game.py, Game: not imported, the game imports its parts): `game` reads
    the weak link (a property: read it once where it is used often)."""

    def __init__(self, game: "Game"):
        self._game = weakref.ref(game)

    @property
    def game(self) -> "Game":
        game = self._game()
        if game is None:
            raise ReferenceError(f"the game of this {type(self).__name__} is gone: keep a reference to the Game "
                                 f"while you use its parts")
        return game
