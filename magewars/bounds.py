"""Upper and lower bounds of the numeric command-line options, in one place.

Each bound keeps the cost of a command bounded: `odds --max-attacks` sets the
length of the attacks-needed chain, `--defender-damage` the damage already on
the defender (no card has anywhere near this much life).  The library checks
the same bounds (magewars.odds), so the API cannot be driven past them either.
"""
from __future__ import annotations

MAX_ATTACKS = 100
MAX_DEFENDER_DAMAGE = 999
MAX_ATTACHED = 20  # cards given with --with / --defender-with


def check_int(value: int, lo: int, hi: int, option: str) -> None:
    """ValueError with a usage message unless lo <= value <= hi."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"{option} must be a whole number")
    if value < lo:
        raise ValueError(f"{option} must be at least {lo} (got {value})")
    if value > hi:
        raise ValueError(f"{option} must be at most {hi} (got {value})")


def click_range(lo: int, hi: int):
    """A click callback enforcing lo <= value <= hi as a usage error (exit 2)."""
    def callback(ctx, param, value):
        import click
        if value is None:
            return value
        try:
            check_int(value, lo, hi, "/".join(param.opts) if param.opts else param.name)
        except ValueError as exc:
            raise click.BadParameter(str(exc).split(" ", 1)[1], ctx, param)  # "must be at least 1 (got 0)"
        return value
    return callback


def click_count(hi: int):
    """A click callback bounding how often a repeatable option is given."""
    def callback(ctx, param, value):
        import click
        if value is not None and len(value) > hi:
            raise click.BadParameter(f"given {len(value)} times; at most {hi}", ctx, param)
        return value
    return callback
