"""Running a duel's games on a Ray cluster (the optional extra: ``pip install ".[cluster]"``).

``--cluster ADDRESS`` connects to a running Ray cluster (``ray://host:10001``, ``host:6379`` or
``auto``); ``--cluster local`` starts a Ray instance on this machine for the run and stops it
afterwards.  The tasks run :func:`runner.play_games` on chunks of game indices; each game's
seed depends only on the run's seed and its index, and the records are put back in index
order, so the results are the same, byte for byte, as with local processes.
"""
from __future__ import annotations

from typing import Callable, Optional

from .runner import DuelConfig, DuelError, chunks, play_games


def ray_module():
    try:
        import ray
    except ImportError:
        raise DuelError("--cluster needs Ray: install the optional extra with  pip install \".[cluster]\"") from None
    return ray


def _check_reachable(address: str, timeout: float = 5.0) -> None:
    """Fail fast on a host:port nobody listens on (Ray itself retries for minutes)."""
    import socket
    from urllib.parse import urlsplit
    if address in ("local", "auto"):
        return
    parts = urlsplit(address if "://" in address else "ray-gcs://" + address)
    host, port = parts.hostname, parts.port
    if not host or not port:
        raise DuelError(f"--cluster {address!r}: give host:port, ray://host:port, auto or local")
    try:
        socket.create_connection((host, port), timeout=timeout).close()
    except OSError as e:
        raise DuelError(f"cannot reach the Ray cluster at {address!r}: {e.strerror or e}") from None


def run_on_ray(cfg: DuelConfig, games: int, address: str,
               progress: Optional[Callable[[int], None]] = None, chunk: int = 0,
               num_cpus: Optional[int] = None) -> list[dict]:
    ray = ray_module()
    _check_reachable(address)
    started = False
    if not ray.is_initialized():
        kw = dict(include_dashboard=False, log_to_driver=False, configure_logging=False)
        try:
            if address == "local":
                ray.init(num_cpus=num_cpus, **kw)
            else:
                ray.init(address=address, **kw)
        except Exception as e:  # connection refused, bad address, version mismatch...
            raise DuelError(f"cannot reach the Ray cluster at {address!r}: {e}") from None
        started = True
    try:
        task = ray.remote(play_games)
        nodes_cpus = int(ray.cluster_resources().get("CPU", 1)) or 1
        size = chunk or max(1, min(16, games // (nodes_cpus * 8) or 1))
        pending = [task.remote(cfg, c) for c in chunks(list(range(games)), size)]
        out: list[dict] = []
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                try:
                    recs = ray.get(ref)
                except ray.exceptions.RayTaskError as e:  # a game failed on a worker: say which and why
                    raise DuelError(f"a game failed on the cluster: {e.cause if hasattr(e, 'cause') else e}") \
                        from None
                out.extend(recs)
                if progress:
                    progress(len(recs))
        return sorted(out, key=lambda r: r["index"])
    finally:
        if started:
            ray.shutdown()
