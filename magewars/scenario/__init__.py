"""Scenario files: YAML boards, actions, scripted dice and choices, expectations (docs/scenarios.md)."""
from .loader import ScenarioDiagnostic, ScenarioError
from .runner import Scenario, ScenarioResult, build, load_scenario, run_cli, run_scenario

__all__ = ["ScenarioDiagnostic", "ScenarioError", "Scenario", "ScenarioResult", "build", "load_scenario",
           "run_cli", "run_scenario"]
