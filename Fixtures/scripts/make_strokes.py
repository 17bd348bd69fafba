#!/usr/bin/env python3
"""Writes the stroke fixture scripts (docs/script-format.md): deterministic, no randomness
beyond a fixed seed. Run from anywhere: python3 Fixtures/scripts/make_strokes.py"""
import json, math, os, random

HERE = os.path.dirname(os.path.abspath(__file__))

def write(name, script):
    with open(os.path.join(HERE, name + ".json"), "w") as f:
        json.dump(script, f, indent=1)
        f.write("\n")

def sample(x, y, t, p=None):
    s = {"x": round(x, 3), "y": round(y, 3), "t": round(t, 4)}
    if p is not None:
        s["pressure"] = round(p, 3)
    return s

# A signature: a looping cursive line, pressure rising and falling, 90 samples at 120 Hz.
sig = []
for i in range(90):
    u = i / 89
    x = 30 + 260 * u + 18 * math.sin(u * math.pi * 9)
    y = 70 - 22 * math.sin(u * math.pi * 5) + 12 * math.cos(u * math.pi * 9)
    p = 0.25 + 0.7 * math.sin(u * math.pi) ** 2 * (0.7 + 0.3 * math.sin(u * 23))
    sig.append(sample(x, y, i / 120, p))
write("stroke-signature", {
    "canvas": {"width": 320, "height": 140, "background": "#f4f1ea"},
    "brushes": {"pen": {"builtin": "soft-round", "size": 64}},
    "draw": [{"brush": "pen", "color": "#1b2a6b", "radius": 4, "spacing": 0.1, "smoothing": 0.6,
              "pressure": {"radius": [0.3, 1.0], "opacity": [0.6, 1.0]}, "points": sig}]})

# A fast scribble: few samples far apart, quick; speed thins the line.
scr = []
for i in range(14):
    x = 25 + i * 20
    y = 30 if i % 2 == 0 else 110
    scr.append(sample(x, y, i * 0.02, 0.8))
write("stroke-fast-scribble", {
    "canvas": {"width": 320, "height": 140, "background": "#101014"},
    "brushes": {"soft": {"builtin": "soft-round"}},
    "draw": [{"brush": "soft", "color": "#ffcc00", "radius": 7, "smoothing": 0.5, "speed": True, "points": scr}]})

# A slow curve: an arc sampled densely and slowly (many samples, little apart).
slow = []
for i in range(240):
    a = math.pi * (0.1 + 0.8 * i / 239)
    slow.append(sample(160 - 120 * math.cos(a), 130 - 100 * math.sin(a), i / 60, 0.5 + 0.5 * math.sin(a)))
write("stroke-slow-curve", {
    "canvas": {"width": 320, "height": 140, "background": "#101014"},
    "brushes": {"hard": {"builtin": "hard-round", "size": 64}},
    "draw": [{"brush": "hard", "color": "#30d158cc", "radius": 6, "spacing": 0.2, "points": slow}]})

# A dot: one tap.
write("stroke-dot", {
    "canvas": {"width": 64, "height": 64, "background": "#101014"},
    "brushes": {"soft": {"builtin": "soft-round"}},
    "draw": [{"brush": "soft", "color": "#ff3b30", "radius": 12, "points": [sample(31.5, 30.25, 0, 0.9)]}]})

# A rotating textured brush: the asymmetric arrow follows a spiral; and one stroke at a fixed turn.
spiral = []
for i in range(60):
    a = i / 59 * math.pi * 3
    r = 15 + 40 * i / 59
    spiral.append(sample(100 + r * math.cos(a), 80 + r * math.sin(a), i / 60))
line = [sample(200, 130, 0), sample(300, 30, 0.5)]
write("stroke-rotating-brush", {
    "canvas": {"width": 320, "height": 160, "background": "#303040"},
    "brushes": {"arrow": "../brushes/f-arrow.png"},
    "draw": [{"brush": "arrow", "color": "#ffffff", "radius": 9, "spacing": 0.9, "rotation": "follow",
              "points": spiral},
             {"brush": "arrow", "color": "#ff9f0a", "radius": 10, "spacing": 1.2, "rotation": 0.785398,
              "points": line}]})

# Periscope-style animation: M = 110, several strokes drawn over 3 s at 30 fps, dissolving.
rng = random.Random(7)
strokes = []
colors = ["#ff3b30", "#ffcc00", "#30d158", "#0a84ff", "#bf5af2"]
for k in range(5):
    t0 = k * 0.6
    cx, cy = rng.uniform(60, 260), rng.uniform(40, 140)
    pts = []
    for i in range(30):
        a = i / 29 * math.pi * 1.5 + k
        pts.append(sample(cx + 50 * math.cos(a) * (0.5 + i / 58), cy + 35 * math.sin(a) * (0.5 + i / 58),
                          t0 + i / 30, 0.4 + 0.6 * i / 29))
    strokes.append({"brush": "soft", "color": colors[k], "radius": 6, "points": pts})
write("periscope", {
    "canvas": {"width": 320, "height": 180, "background": "#101014"},
    "fps": 30, "maxAge": 110, "dissolveDistance": 6, "seed": 11,
    "brushes": {"soft": {"builtin": "soft-round"}},
    "draw": strokes})
