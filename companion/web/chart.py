"""The scores page's chart, as inline SVG, for every game: one group of
bars per round, one bar per player in the player's colour, the value written
on each bar, and the game's target as a line when it has one.

Drawn on the server so the page needs no chart library and no script. The
game's kind gives the data (:meth:`.kinds.GameKind.chart`): deliveries per
round for Mamma Mia!, the running score for Maus au Chocolat.

>>> data = {"players": [{"name": "Ann", "fill": "#3f8a3a", "values": [1, 2, 0]}], "line": None}
>>> svg = str(scores_chart(data, lambda key, **v: f"Round {v['n']}" if v else key))
>>> svg.count("<rect class=\\"bar"), "Round 3" in svg
(3, True)
"""
from __future__ import annotations

from typing import Any, Callable

from markupsafe import Markup, escape

WIDTH, HEIGHT = 360, 220
LEFT, RIGHT, TOP, BOTTOM = 28, 8, 14, 52  # room for the axis numbers and round labels


def scores_chart(data: dict[str, Any], _: Callable[..., str]) -> Markup:
    players, line = data["players"], data.get("line")
    rounds = max([1] + [len(p["values"]) for p in players])
    top = max([2, line or 0] + [n for p in players for n in p["values"]])
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    group_w = plot_w / rounds
    bar_w = min(36.0, (group_w - 12) / max(1, len(players)))

    def y(value: float) -> float:
        return TOP + plot_h - plot_h * value / top

    parts = [f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
             f'aria-label="{escape(_("scores.chart"))}" xmlns="http://www.w3.org/2000/svg">']
    for tick in range(0, top + 1, 1 if top <= 10 else 5):  # a line per point would crowd a score of 30
        parts.append(f'<line class="grid" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(tick):.1f}" y2="{y(tick):.1f}"/>'
                     f'<text class="tick" x="{LEFT - 6}" y="{y(tick) + 4:.1f}" text-anchor="end">{tick}</text>')
    for r in range(rounds):
        x0 = LEFT + r * group_w + (group_w - bar_w * len(players)) / 2
        for i, player in enumerate(players):
            values = player["values"]
            if r >= len(values):
                continue
            value = values[r]
            x = x0 + i * bar_w
            parts.append(f'<rect class="bar {player.get("color", "")}" x="{x + 2:.1f}" y="{y(value):.1f}" '
                         f'width="{bar_w - 4:.1f}" height="{y(0) - y(value):.1f}" fill="{player["fill"]}">'
                         f'<title>{escape(player["name"])}: {value}</title></rect>'
                         f'<text class="value" x="{x + bar_w / 2:.1f}" y="{y(value) - 3:.1f}" '
                         f'text-anchor="middle">{value}</text>')
        parts.append(f'<text class="label" x="{LEFT + (r + 0.5) * group_w:.1f}" y="{TOP + plot_h + 18}" '
                     f'text-anchor="middle">{escape(_("scores.round_n", n=r + 1))}</text>')
    if line:
        parts.append(f'<line class="target" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(line):.1f}" y2="{y(line):.1f}" '
                     f'stroke="#a8432c" stroke-dasharray="6 4"/><text class="tick" x="{WIDTH - RIGHT}" '
                     f'y="{y(line) - 4:.1f}" text-anchor="end">{line}</text>')
    legend_x = LEFT
    for player in players:
        parts.append(f'<rect x="{legend_x}" y="{HEIGHT - 20}" width="12" height="12" '
                     f'fill="{player["fill"]}"/><text class="legend" x="{legend_x + 16}" '
                     f'y="{HEIGHT - 10}">{escape(player["name"][:12])}</text>')
        legend_x += 16 + 8 * min(12, len(player["name"])) + 14
    parts.append("</svg>")
    return Markup("".join(parts))
