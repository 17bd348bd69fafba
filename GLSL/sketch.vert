#version 100
// Stipple's vertex shader: the age effects of SPEC §3.
// One source, two variants: point sprites (default) and quads (STIPPLE_QUADS defined,
// six vertices a stamp, each with its corner). The math is the same for both.
precision highp float;

attribute vec2 aPosition;        // x, y: stamp centre, canvas pixels, y down
attribute float aRadius;         // half the stamp's side before age effects
attribute float aAge;            // frames since birth, as stored in the buffer
attribute float aDissolveAngle;  // radians
attribute vec4 aColor;           // straight colour
attribute float aRotation;       // radians the brush turns, clockwise on the canvas (0 = upright)
#ifdef STIPPLE_QUADS
attribute vec2 aCorner;          // (-1|+1, -1|+1): which corner of the stamp's square
varying vec2 vBrushCoord;        // (0,0) top-left ... (1,1) bottom-right
#endif

uniform vec2 uTargetSize;        // the framebuffer: the canvas plus its guard band on every side
uniform float uGuardBand;        // pixels of band around the canvas (points centred just off it still draw)
uniform float uMaxAge;           // M; 0 = stamps never age
uniform float uDissolveDistance; // D, pixels
uniform float uPointScale;       // s
uniform float uAgeOffset;        // frames added to every stored age (0 when ages are current)

varying vec4 vColor;             // straight colour after age effects
varying vec2 vRotation;          // (cos, sin) of the brush's turn

void main() {
    float age = aAge + uAgeOffset;
    // Not born yet, or dead: put it outside the clip volume so nothing is drawn.
    if (age < 0.0 || (uMaxAge > 0.0 && age >= uMaxAge)) {
        gl_Position = vec4(4.0, 4.0, 4.0, 1.0);
        gl_PointSize = 1.0;
        vColor = vec4(0.0);
        vRotation = vec2(1.0, 0.0);
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
    vec2 pixel = centre + aCorner * (0.5 * diameter);
    vBrushCoord = aCorner * 0.5 + 0.5;
#else
    vec2 pixel = centre;
    gl_PointSize = diameter;
#endif
    // Canvas pixels (y down) to clip space, the canvas inset by the band; window y runs up.
    vec2 target = pixel + uGuardBand;
    gl_Position = vec4(target.x * (2.0 / uTargetSize.x) - 1.0,
                       1.0 - target.y * (2.0 / uTargetSize.y),
                       0.0, 1.0);
}
