#!/usr/bin/env python3
"""Writes the script docs/distributed.md times its shards on: a 640×360 canvas at 30 fps,
300 seeded random strokes of 6 touch samples each, one starting every 0.33 s, never ageing
(maxAge 0), so frame N draws every stamp born by then; an undo and a redo near the end.
With `bake`, the same strokes at half the size and no canvas, for a 320×180 video.
    python3 make-timing-script.py > timing.json
    python3 make-timing-script.py bake > timing-bake.json"""
import json, random, sys

bake = sys.argv[1:] == ["bake"]
scale = 0.5 if bake else 1.0

random.seed(11)
draw = []
for i in range(300):
    t0 = i * 0.33
    x, y = random.uniform(40, 600), random.uniform(30, 330)
    points = []
    for k in range(6):
        points.append({"x": round(x * scale, 2), "y": round(y * scale, 2), "t": round(t0 + k * 0.05, 3),
                       "pressure": round(random.uniform(0.3, 1.0), 2)})
        x = min(630, max(10, x + random.uniform(-40, 40)))
        y = min(350, max(10, y + random.uniform(-30, 30)))
    color = "#%02x%02x%02x" % (random.randrange(256), random.randrange(256), random.randrange(256))
    draw.append({"brush": "soft", "color": color, "radius": round(random.uniform(4, 10) * scale, 2), "points": points})
draw.append({"undo": 1, "t": 95.0})
draw.append({"redo": 1, "t": 96.0})
script = {"fps": 30, "seed": 5, "brushes": {"soft": {"builtin": "soft-round", "size": 64}}, "draw": draw}
if not bake:
    script = {"canvas": {"width": 640, "height": 360, "background": "#101014"}, **script}
print(json.dumps(script, indent=1))
