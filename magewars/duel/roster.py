"""The agents by name: what `--agents` accepts."""
from __future__ import annotations

from .agents import DuelAgent, GreedyAgent, RandomDuelAgent
from .search import SearchAgent

AGENTS: dict[str, type] = {"random": RandomDuelAgent, "greedy": GreedyAgent, "search": SearchAgent}


def agent_names() -> list[str]:
    return sorted(AGENTS)


def make_agent(name: str, seed: int, corpus=None, **options) -> DuelAgent:
    """An agent by name ('random', 'greedy', 'search'), seeded; unknown names fail loudly.
    Options (the search budget) go to the agents that take them."""
    key = name.strip().lower()
    if key not in AGENTS:
        raise ValueError(f"unknown agent {name!r}; agents: {', '.join(agent_names())}")
    cls = AGENTS[key]
    return cls(seed, corpus, **options) if options and cls is SearchAgent else cls(seed, corpus)
