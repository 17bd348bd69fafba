#!/usr/bin/env python3
"""Writes photo.png, the photo-like picture the brush-mode examples retouch: a sky, a sun,
hills with grassy noise, a lake and a red-roofed house, 320×240. It is generated here
(seeded), so it is free of any licence: CC0."""
import math, random
from PIL import Image

W, H = 320, 240
random.seed(4)
img = Image.new("RGB", (W, H))
px = img.load()
for y in range(H):
    for x in range(W):
        t = y / H
        r, g, b = 90 + 100 * t, 150 + 60 * t, 230 - 20 * t                      # sky
        d = math.hypot(x - 250, y - 55)
        if d < 22: r, g, b = 255, 236, 170                                       # sun
        elif d < 40: k = (40 - d) / 18; r, g, b = r + 80 * k, g + 60 * k, b - 10 * k
        hill1 = 140 + 18 * math.sin(x / 37.0) + 8 * math.sin(x / 11.0)
        hill2 = 165 + 12 * math.sin(x / 23.0 + 1.7)
        if y > hill1: n = random.uniform(-18, 18); r, g, b = 70 + n, 110 + n, 45 + n / 2   # far hill
        if y > hill2: n = random.uniform(-25, 25); r, g, b = 45 + n, 95 + n, 35 + n / 2    # near hill
        if y > 205 and 30 < x < 200:                                              # lake
            s = 6 * math.sin(x / 5.0 + y / 2.0)
            r, g, b = 40 + s, 90 + s, 150 + s
        if 215 < x < 265 and 150 < y < 190: r, g, b = 225, 215, 190             # house wall
        if 208 < x < 272 and 125 < y <= 150 and abs(x - 240) < (y - 122) * 1.25: r, g, b = 185, 40, 35  # roof
        if 232 < x < 246 and 168 < y < 190: r, g, b = 90, 55, 35                 # door
        px[x, y] = tuple(max(0, min(255, int(v))) for v in (r, g, b))
img.save("photo.png")
