"""The magewars rules engine: game state, continuous effects, the attack sequence, reveal windows.

The engine knows no card names: behaviour comes from codex trait keys, attack
bar data and the ability ASTs of compiled definitions (magewars.dsl.model).
"""
from .decisions import Agent, Decision, FirstLegalAgent, Option, RandomAgent, ScriptedAgent, ScriptedChoice, UnscriptedDecision
from .dice import Dice, DiceError, Face, ScriptedDice, SeededDice
from .events import Event, EventLog
from .game import EngineError, Game
from .primitives import NotImplementedPrimitive, PRIMITIVES
from .state import Arena, GameObject, GameState, Player

__all__ = ["Agent", "Decision", "FirstLegalAgent", "Option", "RandomAgent", "ScriptedAgent", "ScriptedChoice",
           "UnscriptedDecision", "Dice", "DiceError", "Face", "ScriptedDice", "SeededDice", "Event", "EventLog",
           "EngineError", "Game", "NotImplementedPrimitive", "PRIMITIVES", "Arena", "GameObject", "GameState",
           "Player"]
