#!/usr/bin/env python3
"""Writes the seed corpus, Fuzz/corpus/<target>/, from the fixtures (run from the repository
root; needs ffmpeg for the y4m and extra PNG seeds). The JSON cases are those of
Tests/StippleTests/Hardening/JSONConformanceTests.swift (JSONTestSuite-style y_/n_/i_)."""
import os, shutil, struct, subprocess, sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
corpus = os.path.join(root, "Fuzz", "corpus")
fx = os.path.join(root, "Fixtures")

def out(target, name, data):
    d = os.path.join(corpus, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode("utf-8"))

def ffmpeg(args, name):
    path = os.path.join("/tmp", name)
    subprocess.run(["ffmpeg", "-v", "error", "-y"] + args + [path], check=True)
    data = open(path, "rb").read()
    os.remove(path)
    return data

# FuzzScript: the fixture scripts (but the 21 KB slow curve), the bake's sketch, JSON cases.
for name in sorted(os.listdir(os.path.join(fx, "scripts"))):
    if name.endswith(".json") and name not in ("stipple-test.json", "stroke-slow-curve.json"):
        out("FuzzScript", name, open(os.path.join(fx, "scripts", name), "rb").read())
out("FuzzScript", "video-sketch.json", open(os.path.join(fx, "video", "sketch.json"), "rb").read())
json_cases = {
    "y_array_empty": "[]", "y_object_empty": "{}", "y_number_0": "[0]", "y_number_negative_zero": "[-0]",
    "y_number_real_exponent": "[1.5e+10]", "y_number_capital_E": "[1E22]",
    "y_string_unicode_escape": '["\\u00e9"]', "y_string_surrogate_pair": '["\\ud83d\\ude00"]',
    "y_string_escapes": '["\\"\\\\\\/\\b\\f\\n\\r\\t"]', "y_structure_nested": '{"a":[{"b":[1,2,{"c":null}]}]}',
    "y_literals": "[true,false,null]", "y_whitespace": " \t\r\n[ 1 , 2 ]\n", "y_string_utf8": '["日本"]',
    "y_object_duplicate_keys_different": '{"a":1,"b":2}',
    "n_empty": "", "n_trailing_comma_array": "[1,]", "n_trailing_comma_object": '{"a":1,}',
    "n_single_quote": "['a']", "n_unquoted_key": "{a:1}", "n_number_leading_zero": "[012]",
    "n_number_plus": "[+1]", "n_number_dot_end": "[1.]", "n_number_NaN": "[NaN]",
    "n_number_infinity": "[Infinity]", "n_number_hex": "[0x1]", "n_string_control_char": '["a\x01"]',
    "n_string_bad_escape": '["\\x"]', "n_string_lone_escape_end": '["\\', "n_unclosed_array": "[1",
    "n_unclosed_object": '{"a":1', "n_two_documents": "[] []", "n_comment": "[1] // c",
    "n_true_capital": "[True]", "n_colon_instead_of_comma": "[1:2]", "n_lone_surrogate_half": '["\\ud800"]',
    "n_nul_byte": "[\x00]", "n_deep_nesting": "[" * 10_000, "n_number_huge_exponent": "[1e999999]",
    "i_number_tiny": "[1e-999]", "i_number_long": "[" + "9" * 400 + "]", "i_object_duplicate_key": '{"a":1,"a":2}',
    "i_string_noncharacter": '["\\uffff"]', "i_bom": "\ufeff[]",
}
for name, text in json_cases.items():
    out("FuzzScript", name + ".json", text)
# Brush modes: every key of a stroke layer, and the combinations the decoder refuses.
modes_head = '{"canvas":{"width":64,"height":48},"brushes":{"s":{"builtin":"soft-round"}},"draw":['
modes_cases = {
    "modes-every-key": '{"brush":"s","color":"#ff0000","points":[{"x":4,"y":4,"t":0},{"x":60,"y":40,"t":0.1}],'
                       '"blend":"multiply","strokeOpacity":0.5,"edges":{"tolerance":40},'
                       '"shadow":{"offset":[3,-2],"blur":2.5,"color":"#00000080"}},'
                       '{"brush":"s","stamps":[[30,20,6,0,0,0,0,0,1]],"effect":"sharpen","edges":{}},'
                       '{"brush":"s","points":[{"x":60,"y":4,"t":0}],"blend":"erase","strokeOpacity":1}',
    "modes-effect-with-blend": '{"brush":"s","stamps":[],"effect":"soften","blend":"over"}',
    "modes-shadow-on-erase": '{"brush":"s","stamps":[],"blend":"erase","shadow":{"offset":[4096,-4096],"blur":64}}',
    "modes-bad-values": '{"brush":"s","stamps":[],"edges":{"tolerance":255.5},"shadow":{"offset":[0.5,1],"color":[0,0,0,1]}}',
}
# Every blend and effect name, every key's edge values, session entries at the bounds.
stroke = '{"brush":"s","color":"#ff0000","points":[{"x":4,"y":4,"t":0},{"x":60,"y":40,"t":0.5}]'
for b in ("over", "erase", "multiply", "screen", "add"):
    modes_cases["modes-blend-" + b] = stroke + ',"blend":"%s"}' % b
for e in ("lighten", "darken", "saturate", "desaturate", "soften", "sharpen", "blur"):
    modes_cases["modes-effect-" + e] = stroke + ',"effect":"%s","edges":{}}' % e
modes_cases.update({
    "modes-opacity-edges": stroke + ',"strokeOpacity":1.00000000000000001},' + stroke + ',"strokeOpacity":-1e-300}',
    "modes-shadow-edges": stroke + ',"shadow":{"blur":-1e-300,"color":[0,0,1,0.5],"offset":[-4096,4096]}},'
                          + stroke + ',"shadow":{"blur":64,"color":[0,0,1]}}',
    "session-bounds": stroke + '},{"undo":1,"t":600000},{"redo":1,"t":559240},{"clear":true,"t":-1e15}',
    "session-every-verb": stroke + '},' + stroke + '},{"undo":2,"t":0.2},{"redo":1,"t":0.3},{"clear":true,"t":0.4},{"undo":1,"t":0.5}',
})
for name, entries in modes_cases.items():
    out("FuzzScript", name + ".json", modes_head + entries + "]}")
for name, data in {"n_utf8_ff": b'["\xff"]', "n_utf8_overlong": b'["\xc0\xaf"]', "n_utf8_surrogate": b'["\xed\xa0\x80"]'}.items():
    out("FuzzScript", name + ".json", data)

# FuzzSketchpoints: the first records of the fixtures' files, one bad record, a torn record.
demo = open(os.path.join(fx, "scripts", "demo.sketchpoints"), "rb").read()
overlap = open(os.path.join(fx, "scripts", "overlap.sketchpoints"), "rb").read()
out("FuzzSketchpoints", "demo-20.sketchpoints", demo[:36 * 20])
out("FuzzSketchpoints", "overlap-8.sketchpoints", overlap[:36 * 8])
out("FuzzSketchpoints", "one-nan.sketchpoints", demo[:36] + struct.pack("<9f", *([float("nan")] * 9)))
out("FuzzSketchpoints", "torn.sketchpoints", demo[:36 * 2 + 17])
out("FuzzSketchpoints", "empty.sketchpoints", b"")

# FuzzPNG: the small fixture brushes, and ffmpeg's other colour types and depths.
for name in ("solid.png", "grey-l.png", "rgb-bars.png", "f-arrow.png"):
    out("FuzzPNG", name, open(os.path.join(fx, "brushes", name), "rb").read())
src = ["-f", "lavfi", "-i", "testsrc2=size=6x5:rate=1", "-frames:v", "1"]
for fmt in ("pal8", "gray", "ya8", "rgb48be", "rgba", "gray16be", "monob"):
    out("FuzzPNG", f"testsrc-{fmt}.png", ffmpeg(src + ["-pix_fmt", fmt], f"fuzz-seed-{fmt}.png"))

# FuzzTestConfig: the fixtures' configuration and a few that use every key.
out("FuzzTestConfig", "fixtures.json", open(os.path.join(fx, "scripts", "stipple-test.json"), "rb").read())
out("FuzzTestConfig", "tolerance.json",
    '{"tolerance": {"maxChannelDiff": 2, "maxPixels": "0.1%", "perceptual": 0.1, "antialiasing": true},'
    ' "primitive": "quads"}')
out("FuzzTestConfig", "cases.json",
    '{"cases": {"demo": {"frames": [0, 5], "tolerance": {"maxPixels": 32}, "ignore": [[0, 0, 8, 8]],'
    ' "primitive": "points"}, "tiny": {}}}')
out("FuzzTestConfig", "unknown-case.json", '{"cases": {"nope": {}}}')
out("FuzzTestConfig", "empty.json", "{}")

# FuzzY4M: ffmpeg's 4:2:0 and 4:4:4 streams, and a few headers.
y4m = ["-f", "lavfi", "-i", "testsrc2=size=16x8:rate=30", "-frames:v", "2", "-f", "yuv4mpegpipe"]
out("FuzzY4M", "testsrc2-420.y4m", ffmpeg(y4m + ["-pix_fmt", "yuv420p"], "fuzz-seed-420.y4m"))
out("FuzzY4M", "testsrc2-444.y4m", ffmpeg(y4m + ["-pix_fmt", "yuv444p"], "fuzz-seed-444.y4m"))
out("FuzzY4M", "full-range.y4m", "YUV4MPEG2 W2 H2 F25:1 Ip A1:1 C420jpeg XCOLORRANGE=FULL\nFRAME\n" + "\x10" * 6)
out("FuzzY4M", "odd-size.y4m", "YUV4MPEG2 W3 H1 F30000:1001 C420mpeg2 XYSCSS=420MPEG2\nFRAME\nabcdefg")
out("FuzzY4M", "truncated.y4m", "YUV4MPEG2 W4 H4 C420\nFRAME\nabc")
# Found by FuzzY4M (a harness bug: "\r\n" is one Swift Character): an X tag ending in CRs.
out("FuzzY4M", "crlf-tag.y4m", b"YUV4MPEG2 W3 H1 F30000:1001 C420mpeg2 X?YSRU!\r\r")

# FuzzInkML and FuzzQuickDraw: the ink fixtures and examples, and a few small variants.
for name in sorted(os.listdir(os.path.join(fx, "ink"))):
    target = "FuzzInkML" if name.endswith(".inkml") else "FuzzQuickDraw"
    out(target, name, open(os.path.join(fx, "ink", name), "rb").read())
examples = os.path.join(root, "examples", "ink")
out("FuzzInkML", "formula.inkml", open(os.path.join(examples, "formula.inkml"), "rb").read())
out("FuzzQuickDraw", "shapes.ndjson", open(os.path.join(examples, "shapes.ndjson"), "rb").read())
out("FuzzInkML", "prefixes.inkml", "<ink><trace>10 100, '1 '10, 1 \"0, 1 0, !0 !0, 5 5</trace></ink>")
out("FuzzInkML", "booleans.inkml", "<ink><traceFormat><channel name='X'/><channel name='Y'/><channel name='B' type='boolean'/></traceFormat><trace>1 2 T, 3 4 F, * ? T</trace></ink>")
out("FuzzQuickDraw", "raw-and-blank.ndjson", '{"key_id":"1","drawing":[[[1,2],[3,4],[0,5]]]}\n\n{"drawing":[]}\n')
