"""The installed app's manifest and icons (review N16): the manifest names the app's identity, and
the maskable icon keeps the whole board, its corners and frame, inside the circle every mask shows
(the safe zone: a radius of 40 % of the icon's width about its centre)."""

from __future__ import annotations

import json

from PIL import Image

from tafl_sphinx import offline


def test_the_manifest_names_its_id_as_chromium_asks(site_dir):
    manifest = json.loads((site_dir / "manifest.webmanifest").read_text())
    assert manifest["id"] == "./index.html" == manifest["start_url"]


def test_the_maskable_icon_keeps_the_board_inside_the_safe_circle(site_dir):
    icon = Image.open(site_dir / "_static" / "tafl-icon-maskable-512.png").convert("RGB")
    size = icon.width
    background = tuple(int(offline.BACKGROUND[i:i + 2], 16) for i in (1, 3, 5))
    safe = 0.4 * size
    centre = (size - 1) / 2
    outside = [(x, y) for y in range(size) for x in range(size)
               if max(abs(a - b) for a, b in zip(icon.getpixel((x, y)), background)) > 24
               and ((x - centre) ** 2 + (y - centre) ** 2) ** 0.5 > safe]
    assert outside == [], f"{len(outside)} pixels of the board outside the safe circle, e.g. {outside[:3]}"
    drawn = [(x, y) for y in range(0, size, 4) for x in range(0, size, 4)
             if max(abs(a - b) for a, b in zip(icon.getpixel((x, y)), background)) > 24]
    assert len(drawn) > 0.2 * (size // 4) ** 2, "the board still fills a fair part of the icon"
