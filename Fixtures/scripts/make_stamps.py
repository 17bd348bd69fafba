#!/usr/bin/env python3
"""Writes the fixtures' .sketchpoints files (standard library only).

    python3 Fixtures/scripts/make_stamps.py

Deterministic: a fixed linear congruential generator (not `random`, whose algorithm
is Python's to change) and float32 records packed little-endian, 36 bytes each:
x, y, radius, age, dissolveAngle, red, green, blue, alpha (docs/reference.md §2). Running it again
writes the same bytes. The files are committed; after changing them re-record the
goldens (`make goldens`).

  overlap.sketchpoints  4000 soft stamps, alpha 0.01…0.05, piled on a 256×192 canvas
                        (heavy translucent overlap: blending rounds at every stamp).
  demo.sketchpoints     a Periscope-style burst for the README's 640×360 demo: curling
                        strokes of several colours whose stamps age from the tail
                        (dissolving, M = 110) to the head (just born, flaring white),
                        around a radial burst of young sparks.
"""

import math
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


class LCG:
    """Numerical Recipes' 32-bit LCG; `next()` is uniform in [0, 1)."""

    def __init__(self, seed):
        self.state = seed & 0xFFFFFFFF

    def next(self):
        self.state = (1664525 * self.state + 1013904223) & 0xFFFFFFFF
        return self.state / 2**32

    def uniform(self, a, b):
        return a + (b - a) * self.next()


def write(name, stamps):
    data = b"".join(struct.pack("<9f", *s) for s in stamps)
    path = os.path.join(HERE, name)
    with open(path, "wb") as f:
        f.write(data)
    print(f"wrote {os.path.relpath(path)} ({len(stamps)} stamps, {len(data)} bytes)")


def overlap():
    rng = LCG(20240611)
    stamps = []
    w, h = 256, 192
    for k in range(4000):
        # Three overlapping clouds, so some pixels see over a thousand stamps.
        cx, cy = [(96, 80), (160, 96), (128, 124)][k % 3]
        r = math.sqrt(rng.next()) * 70
        t = rng.uniform(0, 2 * math.pi)
        x, y = cx + r * math.cos(t), cy + r * math.sin(t) * 0.8
        radius = rng.uniform(6, 26)
        red, green, blue = [(0.9, 0.2, 0.3), (0.2, 0.7, 0.9), (0.95, 0.85, 0.2)][k % 3]
        alpha = rng.uniform(0.01, 0.05)
        stamps.append((x, y, radius, 0, 0, red, green, blue, alpha))
    assert all(0 < s[0] < w and 0 < s[1] < h for s in stamps)
    write("overlap.sketchpoints", stamps)


def demo():
    rng = LCG(110)
    w, h = 640, 360
    stamps = []
    palette = [(1.0, 0.23, 0.19), (1.0, 0.62, 0.04), (0.20, 0.78, 0.35),
               (0.04, 0.52, 1.0), (0.69, 0.32, 0.87), (1.0, 0.18, 0.57)]
    # Curling strokes from the centre outwards; the stamp nearest the centre is the
    # oldest (age ~108 of M = 110: shrunk, drifting), the head is just born.
    strokes = 12
    per_stroke = 260
    for s in range(strokes):
        colour = palette[s % len(palette)]
        start = 2 * math.pi * s / strokes + rng.uniform(-0.1, 0.1)
        curl = rng.uniform(1.2, 2.2) * (1 if s % 2 else -1)
        reach = rng.uniform(150, 175)
        for k in range(per_stroke):
            u = k / (per_stroke - 1)              # 0 at the tail, 1 at the head
            r = 18 + reach * u
            a = start + curl * u
            x = w / 2 + r * math.cos(a) * 1.55
            y = h / 2 + r * math.sin(a) * 0.95
            age = 108 * (1 - u)
            radius = 3 + 9 * math.sin(math.pi * min(1.0, u * 1.1)) ** 0.7
            stamps.append((x, y, radius, age, rng.uniform(0, 2 * math.pi),
                           colour[0], colour[1], colour[2], rng.uniform(0.25, 0.55)))
    # A burst of young sparks around the centre, of every age up to the flare.
    for k in range(900):
        t = rng.uniform(0, 2 * math.pi)
        r = 20 + 140 * rng.next() ** 1.5
        colour = palette[k % len(palette)]
        stamps.append((w / 2 + r * math.cos(t) * 1.55, h / 2 + r * math.sin(t) * 0.95,
                       rng.uniform(0.8, 3.5), rng.uniform(0, 90), rng.uniform(0, 2 * math.pi),
                       min(1.0, colour[0] + 0.2), min(1.0, colour[1] + 0.2), min(1.0, colour[2] + 0.2),
                       rng.uniform(0.5, 0.9)))
    write("demo.sketchpoints", stamps)


if __name__ == "__main__":
    overlap()
    demo()
