"""Where a duel's games run: this process, local worker processes, or a Ray cluster."""
from __future__ import annotations

from typing import Callable, Optional

from .runner import DuelConfig, run_local


def run(cfg: DuelConfig, games: int, workers: int = 1, cluster: Optional[str] = None,
        progress: Optional[Callable[[int], None]] = None) -> list[dict]:
    if cluster:
        from .cluster import run_on_ray
        return run_on_ray(cfg, games, cluster, progress=progress)
    return run_local(cfg, games, workers, progress)
