#version 100
// Drop shadow, first half of its blur: the stroke's weight a = L.a * k * w blurred along x,
// taps -R...R (R = ceil(3 sigma)), weights exp(-k^2 / (2 sigma^2)) normalised, zero beyond
// the canvas. Drawn into a target whose band is at least R, so the blur's spill past the
// canvas's edge is kept; the weight is written to every channel.
#ifdef GL_FRAGMENT_PRECISION_HIGH
precision highp float;
#else
precision mediump float;
#endif

uniform sampler2D uLayer;    // the stroke layer L
uniform sampler2D uBefore;   // the canvas before this stroke, for the edge weight
uniform vec2 uCanvasSize;
uniform vec2 uTexSize;       // the canvas's texture
uniform vec2 uOffset;        // its window pixel minus canvas pixel (GL axes)
uniform vec2 uPassOffset;    // the same for this target
uniform vec2 uLayerTexSize;  // L's texture (a slot of several, or a target of its own)
uniform vec2 uLayerOffset;   // window pixel of L minus canvas pixel (GL axes)
// R, the taps on each side, is compiled in (a loop of constant length: a driver that runs
// every iteration of a loop with a varying bound pays for the longest one).
#ifndef SHADOW_TAPS
#define SHADOW_TAPS 0
#endif
// 1 when the stroke has "detect edges": only then is the canvas read a tap.
#ifndef EDGES
#define EDGES 0
#endif
// The taps' weights, normalised over all 2R + 1 of them: uTapWeights[|k|] for tap k.
uniform float uTapWeights[SHADOW_TAPS + 1];
uniform float uOpacity;      // strokeOpacity k
uniform float uTolerance;    // edges: the tolerance (EDGES, compiled in, says whether the stroke has edges)
uniform vec4 uReference;     // edges: the reference colour, 8-bit premultiplied

float weightAt(vec2 q) {
    if (q.x < 0.0 || q.y < 0.0 || q.x >= uCanvasSize.x || q.y >= uCanvasSize.y) return 0.0;
    float w = 1.0;
#if EDGES
    vec4 d = abs(floor(texture2D(uBefore, (q + uOffset + 0.5) / uTexSize) * 255.0 + 0.5) - uReference);
    w = max(max(d.r, d.g), max(d.b, d.a)) <= uTolerance ? 1.0 : 0.0;
#endif
    return texture2D(uLayer, (q + uLayerOffset + 0.5) / uLayerTexSize).a * uOpacity * w;
}

void main() {
    // gl_FragCoord is mediump: a driver may take floor() of it in 16 bits, which past window
    // pixel 1024 rounds the pixel centre to a neighbour. A copy at the default (high) precision keeps it exact.
    vec2 frag = gl_FragCoord.xy;
    vec2 g = floor(frag) - uPassOffset;
    float sum = uTapWeights[0] * weightAt(g);
    for (int i = 1; i <= SHADOW_TAPS; i++) {
        float k = float(i);
        sum += uTapWeights[i] * (weightAt(vec2(g.x - k, g.y)) + weightAt(vec2(g.x + k, g.y)));
    }
    gl_FragColor = vec4(sum);
}
