"""Errors of the engine, in a module of their own so every procedure can raise them without
importing the Game (nothing in the engine imports game.py)."""


class EngineError(Exception):
    """A rules situation the engine cannot resolve (reported, never a traceback for users)."""


class EffectStopped(Exception):
    """An effect that could not happen (a payment its player cannot make, a spell its caster has
    none of): the rest of the effect sequence it leads does not happen either.  Said in the log
    where it is raised; primitives.run_effect ends the effect there."""


def unsupported_note(text: str, src=None, public_text: str = "") -> tuple:
    """A note of a construct the engine refuses, logged before the next event (Game.pending_notes):
    (text, secret_for, public_text).  A face-down source is named to its controller only; the other
    players read `public_text` (written with the source's public label)."""
    if src is not None and getattr(src, "hidden", False) is True:
        return (text, src.controller, public_text)
    return (text, None, None)
