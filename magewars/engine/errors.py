"""Errors of the engine, in a module of their own so every procedure can raise them without
importing the Game (nothing in the engine imports game.py)."""


class EngineError(Exception):
    """A rules situation the engine cannot resolve (reported, never a traceback for users)."""
