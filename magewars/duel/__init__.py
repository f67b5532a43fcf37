"""Duels at scale: agents over the decision interface, a runner for many seeded games on local
processes or a Ray cluster, statistics, charts and replays (docs/duels.md).

    from magewars.duel.backend import run
    from magewars.duel.runner import DuelConfig, document
    cfg = DuelConfig(("beastmaster", "wizard"), ("greedy", "random"), seed=1)
    records = run(cfg, games=20, workers=2)
"""
