#!/usr/bin/env python3
"""Writes the fixture brushes and backgrounds (PNG, standard library only: zlib + struct).

    python3 Fixtures/brushes/make_brushes.py

Deterministic: running it again writes the same bytes. The PNGs are committed; rerun
this only to change them (and then re-record the goldens, `make goldens`).

Images are described row by row, row 0 at the top (docs/reference.md §1, §4: the brush's first row
is the top of the stamp).

  f-arrow.png   64×64 RGBA. An "F" with an arrow in its top-right corner pointing
                up-right; alpha is the shape (anti-aliased), fading from 255 at the top
                to about 150 at the bottom. RGB is a colour ramp that coverage must
                ignore. No symmetry of the square maps it to itself: a flip or a turn
                shows.
  grey-l.png    32×32 greyscale without alpha: coverage is the grey value. An "L"-like
                corner (left and bottom bars) at full white, over a horizontal ramp
                from 0 on the left to 128 on the right.
  rgb-bars.png  30×30 RGB without alpha: coverage is the luma 0.299 R + 0.587 G + 0.114 B.
                Three horizontal bars, pure red, green and blue from the top (luma 76,
                150, 29), so the luma weights are visible as three levels.
  solid.png     4×4 RGBA, fully opaque: every pixel whose centre is inside the stamp's
                square is covered, nothing else (shows rasterisation exactly).
  ../backgrounds/paper-320x240.png
                320×240 RGBA: a checkerboard of two colours under a horizontal alpha
                ramp (255 on the left to 0 on the right) and a vertical hue change.
"""

import os
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))


def png_bytes(width, height, color_type, rows):
    """rows: list of bytes objects, each one row of samples (8 bits a sample)."""
    channels = {0: 1, 2: 3, 6: 4}[color_type]
    raw = bytearray()
    for row in rows:
        assert len(row) == width * channels, (len(row), width, channels)
        raw.append(0)  # filter: none
        raw.extend(row)

    def chunk(kind, data):
        c = struct.pack(">I", len(data)) + kind + data
        return c + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    ihdr = struct.pack(">IIBBBBB", width, height, 8, color_type, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr)
            + chunk(b"IDAT", zlib.compress(bytes(raw), 9)) + chunk(b"IEND", b""))


def write(path, width, height, color_type, rows):
    data = png_bytes(width, height, color_type, rows)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)
    print(f"wrote {os.path.relpath(path)} ({width}x{height}, {len(data)} bytes)")


def clamp8(v):
    return max(0, min(255, int(round(v))))


def supersampled(width, height, inside, n=4):
    """Coverage 0…1 of each pixel by the shape `inside(x, y)` (pixel units, y down)."""
    out = []
    for j in range(height):
        row = []
        for i in range(width):
            hits = 0
            for sj in range(n):
                for si in range(n):
                    if inside(i + (si + 0.5) / n, j + (sj + 0.5) / n):
                        hits += 1
            row.append(hits / (n * n))
        out.append(row)
    return out


def in_triangle(x, y, a, b, c):
    def side(p, q):
        return (q[0] - p[0]) * (y - p[1]) - (q[1] - p[1]) * (x - p[0])
    s1, s2, s3 = side(a, b), side(b, c), side(c, a)
    return (s1 >= 0 and s2 >= 0 and s3 >= 0) or (s1 <= 0 and s2 <= 0 and s3 <= 0)


def f_arrow():
    size = 64

    def inside(x, y):
        # The F: a stem, a top bar and a shorter middle bar.
        if 12 <= x < 22 and 10 <= y < 56:
            return True
        if 12 <= x < 42 and 10 <= y < 19:
            return True
        if 12 <= x < 34 and 29 <= y < 37:
            return True
        # The arrow, top-right corner, pointing up-right: a head, the triangle with
        # its tip at (60, 4) and base corners (44, 4) and (60, 20), and a shaft.
        if in_triangle(x, y, (60, 4), (44, 4), (60, 20)):
            return True
        # Shaft: distance to the segment (40, 24)–(53, 11) under 2.2.
        ax, ay, bx, by = 40.0, 24.0, 53.0, 11.0
        dx, dy = bx - ax, by - ay
        t = max(0.0, min(1.0, ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy)))
        px, py = ax + t * dx - x, ay + t * dy - y
        return px * px + py * py < 2.2 * 2.2

    cov = supersampled(size, size, inside)
    rows = []
    for j in range(size):
        row = bytearray()
        fade = 1.0 - 0.4 * j / (size - 1)
        for i in range(size):
            # RGB: a ramp that coverage must not use.
            row += bytes((clamp8(255 * i / (size - 1)), clamp8(255 * j / (size - 1)), 90,
                          clamp8(255 * cov[j][i] * fade)))
        rows.append(bytes(row))
    write(os.path.join(HERE, "f-arrow.png"), size, size, 6, rows)


def grey_l():
    size = 32
    rows = []
    for j in range(size):
        row = bytearray()
        for i in range(size):
            v = 128 * i / (size - 1)
            if 2 <= i < 8 and 2 <= j < 30:   # left bar
                v = 255
            if 2 <= i < 24 and 24 <= j < 30:  # bottom bar
                v = 255
            row.append(clamp8(v))
        rows.append(bytes(row))
    write(os.path.join(HERE, "grey-l.png"), size, size, 0, rows)


def rgb_bars():
    size = 30
    rows = []
    for j in range(size):
        colour = [(255, 0, 0), (0, 255, 0), (0, 0, 255)][j // 10]
        rows.append(bytes(colour) * size)
    write(os.path.join(HERE, "rgb-bars.png"), size, size, 2, rows)


def solid():
    write(os.path.join(HERE, "solid.png"), 4, 4, 6, [bytes((255, 255, 255, 255)) * 4] * 4)


def paper():
    w, h = 320, 240
    rows = []
    for j in range(h):
        row = bytearray()
        for i in range(w):
            check = ((i // 16) + (j // 16)) % 2
            if check:
                r, g, b = 230, 220, 190
            else:
                r, g, b = clamp8(60 + 120 * j / (h - 1)), 90, clamp8(180 - 120 * j / (h - 1))
            a = clamp8(255 * (1 - i / (w - 1)))
            row += bytes((r, g, b, a))
        rows.append(bytes(row))
    write(os.path.join(HERE, "..", "backgrounds", "paper-320x240.png"), w, h, 6, rows)


if __name__ == "__main__":
    f_arrow()
    grey_l()
    rgb_bars()
    solid()
    paper()
