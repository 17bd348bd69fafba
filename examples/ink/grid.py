"""Lays the PNGs Stipple rendered from shapes.ndjson (a folder) out as a 3 × 3 grid, for docs/images/."""
import os
import sys

from PIL import Image

folder, out = sys.argv[1], sys.argv[2]
names = sorted(n for n in os.listdir(folder) if n.endswith(".png"))[:9]
tiles = [Image.open(os.path.join(folder, n)) for n in names]
side = tiles[0].width
grid = Image.new("L", (3 * side + 4 * 8, 3 * side + 4 * 8), 200)
for i, tile in enumerate(tiles):
    grid.paste(tile, (8 + (i % 3) * (side + 8), 8 + (i // 3) * (side + 8)))
grid.save(out)
