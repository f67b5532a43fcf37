"""Upper and lower bounds of the command-line options, in one place.

Each bound keeps the cost of a command bounded: `odds --max-attacks` sets the
length of the attacks-needed chain, `--defender-damage` the damage already on
the defender (no card has anywhere near this much life), and a name, term or
question given on the command line is at most MAX_TEXT_CHARS long (each word of a
question is matched against every name: a page of text would take minutes).  The library checks
the same bounds (magewars.odds), so the API cannot be driven past them either.
"""
from __future__ import annotations

MAX_ATTACKS = 100
MAX_DEFENDER_DAMAGE = 999
MAX_ATTACHED = 20  # cards given with --with / --defender-with
MAX_TEXT_CHARS = 500  # a card name, rules term, section or question (the longest card name has 34)


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


def click_text(count: "int | None" = None):
    """A click callback bounding a text argument or option: each value (or, for several words of one
    argument, the words joined) at most MAX_TEXT_CHARS long, and a repeatable option given at most
    `count` times."""
    def callback(ctx, param, value):
        import click
        if value is None:
            return value
        if count is not None and len(value) > count:
            raise click.BadParameter(f"given {len(value)} times; at most {count}", ctx, param)
        several = isinstance(value, tuple)
        texts = value if several and param.multiple else [" ".join(value)] if several else [value]
        for text in texts:
            if len(text) > MAX_TEXT_CHARS:
                raise click.BadParameter(f"{len(text)} characters long; at most {MAX_TEXT_CHARS}", ctx, param)
        return value
    return callback
