"""The same games on a local Ray cluster give the same bytes as on local processes."""
import pytest

from magewars.duel.runner import DuelConfig, document, dumps, run_local

ray = pytest.importorskip("ray", reason="the cluster extra is not installed (pip install \".[cluster]\")")


def test_ray_cluster_results_are_byte_identical():
    from magewars.duel.cluster import run_on_ray
    cfg = DuelConfig(("druid", "warlock"), ("random", "greedy"), seed=21, max_rounds=5)
    local = dumps(document(cfg, run_local(cfg, 6)))
    seen = []
    on_ray = run_on_ray(cfg, 6, "local", progress=seen.append, chunk=2, num_cpus=2)
    assert not ray.is_initialized()  # the run stopped the cluster it started
    assert sum(seen) == 6
    assert dumps(document(cfg, on_ray)) == local


def test_unreachable_cluster_is_a_message():
    from magewars.duel.cluster import run_on_ray
    from magewars.duel.runner import DuelError
    cfg = DuelConfig(("druid", "warlock"), seed=1, max_rounds=2)
    with pytest.raises(DuelError, match="cannot reach the Ray cluster"):
        run_on_ray(cfg, 1, "127.0.0.1:1")
    with pytest.raises(DuelError, match="give host:port"):
        run_on_ray(cfg, 1, "nowhere")
