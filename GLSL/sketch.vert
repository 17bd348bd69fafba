#version 100
// Stipple's vertex shader: the age effects of docs/reference.md §3.
// One source, two variants: point sprites (default) and quads (STIPPLE_QUADS defined,
// six vertices a stamp, each with its corner). The math is the same for both.
//
// Placement is exact and translation-invariant: a stamp's pixels depend only on its
// canvas coordinates, never on where the canvas sits in the target (a guard band, a tile,
// a layer's region). Positions are put on a 1/512-pixel grid in canvas coordinates, moved
// into the target by a whole-pixel origin, and mapped to clip space through a viewport
// whose sides are powers of two: every step is exact in 32-bit floats, so the rasteriser
// sees the same sub-pixel positions whatever the origin. The fragment shader computes the
// brush coordinate from the pixel's centre and the stamp's square (see sketch.frag).
precision highp float;

attribute vec2 aPosition;        // x, y: stamp centre, canvas pixels, y down
attribute float aRadius;         // half the stamp's side before age effects
attribute float aAge;            // frames since birth, as stored in the buffer
attribute float aDissolveAngle;  // radians
attribute vec4 aColor;           // straight colour
attribute float aRotation;       // radians the brush turns, clockwise on the canvas (0 = upright)
#ifdef STIPPLE_QUADS
attribute vec2 aCorner;          // (-1|+1, -1|+1): which corner of the stamp's square
varying vec2 vBrushCoord;        // (0,0) top-left ... (1,1) bottom-right (without highp fragments)
#endif

uniform vec2 uTargetSize;        // the framebuffer, pixels
uniform vec2 uViewSize;          // the viewport from the framebuffer's corner: powers of two, at least uTargetSize
uniform vec2 uOrigin;            // canvas coordinates of the framebuffer's top-left corner (whole pixels)
uniform float uMaxAge;           // M; 0 = stamps never age
uniform float uDissolveDistance; // D, pixels
uniform float uPointScale;       // s
uniform float uAgeOffset;        // frames added to every stored age (0 when ages are current)

varying vec4 vColor;             // straight colour after age effects
varying vec2 vRotation;          // (cos, sin) of the brush's turn
varying vec4 vSquare;            // the stamp's square: left edge in window pixels, top edge in rows from the target's
                                 // top, 1/width, 1/height

// A canvas point on the 1/512 grid (exact below 2^14; larger floats are on a coarser grid
// already), then in window pixels (y up). q − origin and every later step are exact for
// windows below 2^15 pixels.
vec2 toWindow(vec2 p) {
    vec2 grid = floor(p * 512.0 + 0.5) / 512.0;
    vec2 q = vec2(abs(p.x) < 16384.0 ? grid.x : p.x, abs(p.y) < 16384.0 ? grid.y : p.y);
    return vec2(q.x - uOrigin.x, uTargetSize.y - (q.y - uOrigin.y));
}

void main() {
    float age = aAge + uAgeOffset;
    // Not born yet, or dead: put it outside the clip volume so nothing is drawn.
    if (age < 0.0 || (uMaxAge > 0.0 && age >= uMaxAge)) {
        gl_Position = vec4(4.0, 4.0, 4.0, 1.0);
        gl_PointSize = 1.0;
        vColor = vec4(0.0);
        vRotation = vec2(1.0, 0.0);
        vSquare = vec4(0.0, 0.0, 1.0, 1.0);
#ifdef STIPPLE_QUADS
        vBrushCoord = vec2(0.0);
#endif
        return;
    }

    float intro = 0.0;
    float outro = 0.0;
    float flare = 0.0;
    float shrink = 1.0;
    if (uMaxAge > 0.0) {
        float life = age / uMaxAge;
        intro  = 1.0 - smoothstep(0.00, 0.05, life);
        outro  =       smoothstep(0.75, 1.00, life);
        flare  =       smoothstep(0.70, 0.80, life);
        shrink = 1.0 - smoothstep(0.70, 0.95, life);
    }

    vec2 centre = aPosition + vec2(cos(aDissolveAngle), sin(aDissolveAngle)) * (outro * uDissolveDistance);
    float diameter = max(2.0 * aRadius * uPointScale * (1.0 + intro) * shrink, 1.0);

    vec3 rgb = mix(aColor.rgb, vec3(1.0), 0.6 * intro);
    rgb = mix(rgb, vec3(1.0), 0.6 * flare);
    vColor = vec4(rgb, aColor.a);
    vRotation = aRotation == 0.0 ? vec2(1.0, 0.0) : vec2(cos(aRotation), sin(aRotation));

#ifdef STIPPLE_QUADS
    // The square between its two placed corners; this vertex at its own corner.
    vec2 topLeft = toWindow(centre - 0.5 * diameter);
    vec2 bottomRight = toWindow(centre + 0.5 * diameter);
    vSquare = vec4(topLeft.x, uTargetSize.y - topLeft.y, 1.0 / (bottomRight.x - topLeft.x), 1.0 / (topLeft.y - bottomRight.y));
    vec2 window = toWindow(centre + aCorner * (0.5 * diameter));
    vBrushCoord = aCorner * 0.5 + 0.5;
#else
    // The point as the rasteriser places it: its centre, its width on the 1/256 grid.
    vec2 window = toWindow(centre);
    float width = max(1.0, floor(diameter * 256.0 + 0.5) / 256.0);
    vSquare = vec4(window.x - 0.5 * width, uTargetSize.y - (window.y + 0.5 * width), 1.0 / width, 1.0 / width);
    gl_PointSize = diameter;
#endif
    gl_Position = vec4((window - 0.5 * uViewSize) * (2.0 / uViewSize), 0.0, 1.0);
}
