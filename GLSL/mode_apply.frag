#version 100
// A stroke layer meets the canvas (docs/brush-modes.md): the stroke's weight
// a = L.a * k * w, its drop shadow, then its blend or its effect. Drawn over the region the
// stroke can touch with blending off; reads the canvas as it was before the stroke.
#ifdef GL_FRAGMENT_PRECISION_HIGH
precision highp float;
#else
precision mediump float;
#endif

uniform sampler2D uBefore;   // d: the canvas before this stroke, premultiplied
uniform sampler2D uLayer;    // L: the stroke's stamps over transparent, premultiplied
uniform sampler2D uBlurred;  // soften/sharpen: uBefore blurred along x
uniform sampler2D uShadow;   // shadow: the weight blurred along x (its own target, uPassOffset)
uniform vec2 uCanvasSize;
uniform vec2 uTexSize;
uniform vec2 uOffset;        // window pixel minus canvas pixel (GL axes): the band, less a tile's origin
uniform vec2 uLayerTexSize; // L's texture (a slot of several, or a target of its own)
uniform vec2 uLayerOffset;  // window pixel of L minus canvas pixel (GL axes)
uniform vec2 uPassTexSize;
uniform vec2 uPassOffset;    // the same for the shadow's target
uniform float uOpacity;      // strokeOpacity k
uniform float uTolerance;    // edges: the tolerance (EDGES, compiled in, says whether the stroke has edges)
uniform vec4 uReference;     // edges: the reference colour, 8-bit premultiplied
// Compiled in (a program for each): whether the stroke casts a shadow (HAS_SHADOW) and
// whether its effect blurs (BLURS: soften, sharpen). llvmpipe runs the texture reads of a
// branch its lanes skip, so code a stroke cannot take is left out of its program.
#ifndef HAS_SHADOW
#define HAS_SHADOW 0
#endif
#ifndef BLURS
#define BLURS 0
#endif
// 1 when the stroke has "detect edges" (its weight then reads the canvas's colour).
#ifndef EDGES
#define EDGES 0
#endif
// R compiled in as well, for a loop of constant length (see mode_shadow.frag).
#ifndef SHADOW_TAPS
#define SHADOW_TAPS 0
#endif
// The taps' weights, normalised over all 2R + 1 of them: uTapWeights[|k|] for tap k.
uniform float uTapWeights[SHADOW_TAPS + 1];
uniform vec2 uShadowOffset;  // in the target's axes (y up)
uniform vec4 uShadowColor;   // straight

vec4 fetch(sampler2D t, vec2 g) { return texture2D(t, (g + uOffset + 0.5) / uTexSize); }

// The shadow's weight at pass-target pixel t, zero off that target.
float shadowAt(vec2 t) {
    bool inside = all(greaterThanEqual(t, vec2(0.0))) && all(lessThan(t, uPassTexSize));
    return inside ? texture2D(uShadow, (t + 0.5) / uPassTexSize).a : 0.0;
}

float shadowWeight(vec2 g) {
    vec2 t = g - uShadowOffset + uPassOffset;
    float sum = uTapWeights[0] * shadowAt(t);
    for (int i = 1; i <= SHADOW_TAPS; i++) {
        float k = float(i);
        sum += uTapWeights[i] * (shadowAt(vec2(t.x, t.y - k)) + shadowAt(vec2(t.x, t.y + k)));
    }
    return sum;
}

vec4 blurred(vec2 g) {
    vec4 sum = vec4(0.0);
    float total = 0.0;
    for (int i = -BLUR_RADIUS; i <= BLUR_RADIUS; i++) {
        float k = float(i);
        float w = exp(-k * k / (2.0 * BLUR_SIGMA * BLUR_SIGMA));
        sum += w * fetch(uBlurred, vec2(g.x, clamp(g.y + k, 0.0, uCanvasSize.y - 1.0)));
        total += w;
    }
    return sum / total;
}

// The stroke's mode (MODE_OVER, MODE_ERASE, …, MODE_SHARPEN), compiled in, a program for
// each: the comparisons fold to constants and only the mode's own branch is left (llvmpipe
// would run every branch's code for every pixel).
#ifndef APPLY_MODE
#define APPLY_MODE MODE_OVER
#endif
bool isMode(float m) { return abs(APPLY_MODE - m) < 0.5; }

vec3 adjusted(vec3 c) {
    float y = dot(c, vec3(0.299, 0.587, 0.114));
    if (isMode(MODE_LIGHTEN)) return 1.0 - (1.0 - c) * (1.0 - c);
    if (isMode(MODE_DARKEN)) return c * c;
    if (isMode(MODE_SATURATE)) return clamp(y + 2.0 * (c - y), 0.0, 1.0);
    return vec3(y);
}

void main() {
    // gl_FragCoord is mediump: a driver may take floor() of it in 16 bits, which past window
    // pixel 1024 rounds the pixel centre to a neighbour. A copy at the default (high) precision keeps it exact.
    vec2 frag = gl_FragCoord.xy;
    vec2 g = floor(frag) - uOffset;
    vec4 d = fetch(uBefore, g);
    float w = 1.0;
#if EDGES
    vec4 diff = abs(floor(d * 255.0 + 0.5) - uReference);
    w = max(max(diff.r, diff.g), max(diff.b, diff.a)) <= uTolerance ? 1.0 : 0.0;
#endif
    vec4 s = texture2D(uLayer, (g + uLayerOffset + 0.5) / uLayerTexSize) * (uOpacity * w);
#if HAS_SHADOW
    float sa = shadowWeight(g) * uShadowColor.a;
    d = vec4(uShadowColor.rgb * sa, sa) + d * (1.0 - sa);
#endif
    if (isMode(MODE_OVER)) {
        d = s + d * (1.0 - s.a);
    } else if (isMode(MODE_ERASE)) {
        d = d * (1.0 - s.a);
    } else if (isMode(MODE_MULTIPLY)) {
        d = vec4(s.rgb * (1.0 - d.a) + d.rgb * (1.0 - s.a) + s.rgb * d.rgb, s.a + d.a * (1.0 - s.a));
    } else if (isMode(MODE_SCREEN)) {
        d = s + d - s * d;
    } else if (d.a > 0.0 && s.a > 0.0) {
        float m = s.a;
#if BLURS
        vec4 b = blurred(g);
        vec4 e = b;
        if (isMode(MODE_SHARPEN)) {
            e = clamp(2.0 * d - b, 0.0, 1.0);
            e.rgb = min(e.rgb, e.a);
        }
        d = d + (e - d) * m;
#else
        vec3 c = d.rgb / d.a;
        d = vec4((c + (adjusted(c) - c) * m) * d.a, d.a);
#endif
    }
    gl_FragColor = d;
}
