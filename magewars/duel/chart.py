"""The win rate of side A as games accumulate, with its Wilson 95% band: a PNG, or a
self-contained HTML page (the chart inlined as SVG, the page from a Jinja2 template; no
script, no network)."""
from __future__ import annotations

import io
from pathlib import Path

from .stats import running_win_rate

PAGE = """<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{ title }}</title>
<style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:1rem auto;padding:0 1rem;color:#111}
figure{margin:0}svg{max-width:100%;height:auto}table{border-collapse:collapse}
td,th{padding:.2rem .6rem;text-align:left;border-bottom:1px solid #ccc}</style></head>
<body><main>
<h1>{{ title }}</h1>
<figure aria-label="win rate of side A as games accumulate">{{ svg | safe }}</figure>
<table><caption>Results</caption>
<tr><th scope="col">side</th><th scope="col">book</th><th scope="col">agent</th><th scope="col">wins</th>
<th scope="col">win rate (95% interval)</th></tr>
{% for s in sides %}<tr><td>{{ s.side }}</td><td>{{ s.book }}</td><td>{{ s.agent }}</td><td>{{ s.wins }}</td>
<td>{{ "%.1f"|format(100 * s.win_rate) }}% ({{ "%.1f"|format(100 * s.low) }}–{{ "%.1f"|format(100 * s.high) }}%)</td></tr>
{% endfor %}</table>
<p>{{ games }} games, {{ draws }} draws, seed {{ seed }}.</p>
</main></body></html>
"""


def _figure(records, title: str):
    import matplotlib
    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    pts = running_win_rate(records, "A")
    fig = Figure(figsize=(8, 4.2), dpi=100)
    ax = fig.add_subplot()
    xs = [p[0] for p in pts]
    ax.fill_between(xs, [p[2] for p in pts], [p[3] for p in pts], alpha=0.25, label="Wilson 95% interval")
    ax.plot(xs, [p[1] for p in pts], label="win rate of side A")
    ax.axhline(0.5, linestyle=":", linewidth=1, color="grey")
    ax.set_xlabel("games played")
    ax.set_ylabel("win rate of side A")
    ax.set_ylim(0, 1)
    ax.set_title(title)
    ax.legend(loc="lower right")
    fig.tight_layout()
    return fig


def write_chart(path: Path, records: list[dict], summary, config) -> None:
    """Write the chart as PNG (`.png`) or a self-contained page (`.html`/`.htm`)."""
    path = Path(path)
    title = f"{summary.sides[0].book} ({summary.sides[0].agent}) vs {summary.sides[1].book} ({summary.sides[1].agent})"
    fig = _figure(records, title)
    suffix = path.suffix.lower()
    if suffix == ".png":
        fig.savefig(path, format="png", metadata={"Software": None})
        return
    if suffix not in (".html", ".htm"):
        raise ValueError(f"{path}: the chart is written as .png or .html")
    buf = io.StringIO()
    fig.savefig(buf, format="svg", metadata={"Date": None})
    svg = buf.getvalue()
    svg = svg[svg.index("<svg"):]  # drop the XML prolog and doctype inside an HTML page
    from jinja2 import Environment
    page = Environment(autoescape=True).from_string(PAGE).render(
        title=title, svg=svg, sides=summary.sides, games=summary.games, draws=summary.draws, seed=config.seed)
    path.write_text(page, encoding="utf-8")
