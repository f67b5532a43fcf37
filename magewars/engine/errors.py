"""Errors of the engine, in a module of their own so every procedure can raise them without
importing the Game (nothing in the engine imports game.py)."""


class EngineError(Exception):
    """A rules situation the engine cannot resolve (reported, never a traceback for users)."""


class EffectStopped(Exception):
    """An effect that could not happen (a payment its player cannot make, a spell its caster has
    none of): the rest of the effect sequence it leads does not happen either.  Said in the log
    where it is raised; primitives.run_effect ends the effect there."""


def secret_keywords(obj, public: str) -> dict:
    """The one rule for a line that names a face-down object (or gives a reason quoting its card): the
    keywords of `Game.emit` that show it to the object's controller only, every other player reading
    `public` (written with the object's public label); {} for a face-up object or none."""
    if obj is not None and getattr(obj, "hidden", False) is True:
        return {"secret_for": obj.controller, "public_text": public}
    return {}


def unsupported_note(text: str, src=None, public_text: str = "") -> tuple:
    """A note of a construct the engine refuses, logged before the next event (Game.pending_notes):
    (text, secret_for, public_text), kept from the other players as `secret_keywords` says."""
    kw = secret_keywords(src, public_text)
    return (text, kw.get("secret_for"), kw.get("public_text"))
