"""Draws the page's icons into src/belote/web/icons/: the mark (a white spade on the felt's green) as
an SVG, and the PNGs that a phone's home screen and the web-app manifest ask for.

    python scripts/icons.py            writes them
    python scripts/icons.py --check    fails when a kept file is not what it writes

The PNGs are drawn here, with the standard library only (zlib and struct): the spade's path is cut
into short lines, each row of pixels is filled where the path winds (eight rows of samples a pixel,
the exact covered width along each), and the rows are written as a PNG. Sizes:

- ``icon-192.png``, ``icon-512.png``: the mark as the SVG draws it, a rounded square (``any``);
- ``maskable-192.png``, ``maskable-512.png``: the felt to the edges, the spade within the middle
  circle that every launcher's mask keeps (``maskable``);
- ``apple-touch-icon.png`` (180): the felt to the edges (the phone rounds the corners itself).
"""

from __future__ import annotations

import argparse
import itertools
import re
import struct
import sys
import zlib
from collections.abc import Iterator
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "src" / "belote" / "web" / "icons"
FELT = (0x17, 0x70, 0x3F)  # the table's felt (style.css --felt)
WHITE = (0xFF, 0xFF, 0xFF)
# The spade, in a square of 100 (the favicon the page has always had).
SPADE = (
    "M50 12C66 30 86 42 86 58c0 11-8 18-18 18-7 0-12-4-15-8 1 8 4 13 10 17H37c6-4 9-9 10-17-3 4-8 8-15 8"
    "-10 0-18-7-18-18 0-16 20-28 36-46z"
)
RADIUS = 18  # the rounded square's corners, in the square of 100
SPADE_CENTRE = (50.0, 48.5)  # the middle of the spade's box
SAMPLES = 8  # rows of samples a pixel
STEPS = 24  # lines a curve is cut into

Point = tuple[float, float]
Polygon = list[Point]


def svg() -> str:
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">'
        f'<rect width="100" height="100" rx="{RADIUS}" fill="#{bytes(FELT).hex()}"/>'
        f'<path fill="#fff" d="{SPADE}"/></svg>\n'
    )


def _tokens(d: str) -> Iterator[str]:
    yield from re.findall(r"[MmLlHhVvCcZz]|-?(?:\d+\.?\d*|\.\d+)", d)


def _cubic(p0: Point, p1: Point, p2: Point, p3: Point) -> Iterator[Point]:
    for i in range(1, STEPS + 1):
        t = i / STEPS
        u = 1 - t
        yield (
            u**3 * p0[0] + 3 * u * u * t * p1[0] + 3 * u * t * t * p2[0] + t**3 * p3[0],
            u**3 * p0[1] + 3 * u * u * t * p1[1] + 3 * u * t * t * p2[1] + t**3 * p3[1],
        )


def path_polygons(d: str) -> list[Polygon]:
    """An SVG path (M L H V C Z, absolute or relative) as closed polygons.

    >>> path_polygons("M0 0H10V10h-10z")
    [[(0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0), (0.0, 0.0)]]
    """
    tokens = list(_tokens(d))
    polygons: list[Polygon] = []
    current: Polygon = []
    x = y = 0.0
    i, command = 0, ""

    def number() -> float:
        nonlocal i
        i += 1
        return float(tokens[i - 1])

    while i < len(tokens):
        if tokens[i].isalpha():
            command = tokens[i]
            i += 1
        rel = command.islower()
        ox, oy = (x, y) if rel else (0.0, 0.0)
        match command.upper():
            case "M":
                if current:
                    polygons.append(current)
                x, y = ox + number(), oy + number()
                current = [(x, y)]
                command = "l" if rel else "L"  # pairs after a move are lines
            case "L":
                x, y = ox + number(), oy + number()
                current.append((x, y))
            case "H":
                x = ox + number()
                current.append((x, y))
            case "V":
                y = oy + number()
                current.append((x, y))
            case "C":
                c1 = (ox + number(), oy + number())
                c2 = (ox + number(), oy + number())
                end = (ox + number(), oy + number())
                current.extend(_cubic((x, y), c1, c2, end))
                x, y = end
            case "Z":
                current.append(current[0])
                polygons.append(current)
                x, y = current[0]
                current = []
    if current:
        polygons.append(current)
    return polygons


def rounded_square(radius: float) -> Polygon:
    """The square of 100 with rounded corners (each a quarter circle as a cubic)."""
    k = 0.5523 * radius
    r, e = radius, 100.0
    d = (
        f"M{r} 0H{e - r}C{e - r + k} 0 {e} {r - k} {e} {r}V{e - r}C{e} {e - r + k} {e - r + k} {e} {e - r} {e}"
        f"H{r}C{r - k} {e} 0 {e - r + k} 0 {e - r}V{r}C0 {r - k} {r - k} 0 {r} 0Z"
    )
    return path_polygons(d)[0]


def placed(polygons: list[Polygon], size: int, scale: float = 1.0) -> list[Polygon]:
    """Polygons of the square of 100, scaled about the spade's middle by ``scale``, in pixels of ``size``."""
    cx, cy = SPADE_CENTRE
    f = size / 100
    return [[((cx + (px - cx) * scale) * f, (cy + (py - cy) * scale) * f) for px, py in poly] for poly in polygons]


def coverage(polygons: list[Polygon], size: int) -> list[list[float]]:
    """How much of each pixel the polygons cover (nonzero winding), 0 to 1, row by row."""
    edges = [
        (x0, y0, x1, y1, 1 if y1 > y0 else -1)
        for poly in polygons
        for (x0, y0), (x1, y1) in itertools.pairwise(poly)
        if y0 != y1
    ]
    rows = []
    weight = 1 / SAMPLES
    for py in range(size):
        full = [0.0] * (size + 1)  # differences: whole pixels covered
        part = [0.0] * (size + 1)  # the covered part of the pixels at a span's ends
        for k in range(SAMPLES):
            y = py + (k + 0.5) / SAMPLES
            crossings = sorted(
                (x0 + (y - y0) * (x1 - x0) / (y1 - y0), d)
                for x0, y0, x1, y1, d in edges
                if min(y0, y1) <= y < max(y0, y1)
            )
            winding = 0
            for (xa, d), (xb, _) in itertools.pairwise(crossings):
                winding += d
                if winding:
                    _span(full, part, max(0.0, xa), min(float(size), xb), weight)
        row, run = [], 0.0
        for i in range(size):
            run += full[i]
            row.append(min(1.0, run + part[i]))
        rows.append(row)
    return rows


def _span(full: list[float], part: list[float], xa: float, xb: float, weight: float) -> None:
    if xb <= xa:
        return
    ia, ib = int(xa), int(xb)
    if ia == ib:
        part[ia] += (xb - xa) * weight
        return
    part[ia] += (ia + 1 - xa) * weight
    full[ia + 1] += weight
    full[ib] -= weight
    if ib < len(part) - 1:
        part[ib] += (xb - ib) * weight


def draw(size: int, rounded: bool, scale: float) -> list[list[tuple[int, int, int, int]]]:
    """The icon's pixels (RGBA): the felt (a rounded square, or to the edges), the white spade on it."""
    ground = coverage(placed([rounded_square(RADIUS)], size), size) if rounded else None
    spade = coverage(placed(path_polygons(SPADE), size, scale), size)
    pixels = []
    for y in range(size):
        row = []
        for x in range(size):
            s = spade[y][x]
            colour = tuple(round(f + (w - f) * s) for f, w in zip(FELT, WHITE, strict=True))
            alpha = 1.0 if ground is None else max(ground[y][x], s)
            row.append((colour[0], colour[1], colour[2], round(255 * alpha)))
        pixels.append(row)
    return pixels


def png(pixels: list[list[tuple[int, int, int, int]]]) -> bytes:
    """A PNG of the pixels: RGBA, or RGB when every pixel is opaque; each row unfiltered."""
    opaque = all(p[3] == 255 for row in pixels for p in row)
    channels = 3 if opaque else 4
    raw = b"".join(b"\0" + bytes(v for p in row for v in p[:channels]) for row in pixels)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", len(pixels[0]), len(pixels), 8, 2 if opaque else 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


# name: (size, rounded square, the spade's scale)
ICONS = {
    "icon-192.png": (192, True, 1.0),
    "icon-512.png": (512, True, 1.0),
    "maskable-192.png": (192, False, 0.78),
    "maskable-512.png": (512, False, 0.78),
    "apple-touch-icon.png": (180, False, 0.86),
}


def files() -> dict[str, bytes]:
    out = {"icon.svg": svg().encode()}
    for name, (size, rounded, scale) in ICONS.items():
        out[name] = png(draw(size, rounded, scale))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="fail when a kept file is not what this writes")
    args = parser.parse_args()
    made = files()
    if args.check:
        stale = [name for name, data in made.items() if not (OUT / name).exists() or (OUT / name).read_bytes() != data]
        if stale:
            sys.exit(f"not as scripts/icons.py draws them: {', '.join(stale)} (run python scripts/icons.py)")
        return
    OUT.mkdir(parents=True, exist_ok=True)
    for name, data in made.items():
        (OUT / name).write_bytes(data)
        print(f"{OUT / name}: {len(data)} bytes")


if __name__ == "__main__":
    main()
