#version 100
// Ink drawn as lines: a pixel's coverage is how far its centre lies inside the chord's
// capsule (distance to the segment against the radius there), ramped over one pixel. Written
// as white premultiplied coverage; chords meet under MAX blending, so where two chords of a
// line overlap a pixel keeps the larger coverage and a joint is never drawn twice.
#ifdef GL_FRAGMENT_PRECISION_HIGH
precision highp float;
#else
precision mediump float;
#endif
uniform vec2 uTargetSize;
uniform vec2 uOrigin;
varying vec4 vSegment;
varying vec2 vRadii;

void main() {
    // The pixel's centre in canvas pixels (gl_FragCoord is at the centre, y up).
    vec2 p = vec2(gl_FragCoord.x + uOrigin.x, uTargetSize.y - gl_FragCoord.y + uOrigin.y);
    vec2 a = vSegment.xy;
    vec2 ab = vSegment.zw - a;
    float len2 = dot(ab, ab);
    float t = len2 > 0.0 ? clamp(dot(p - a, ab) / len2, 0.0, 1.0) : 0.0;
    float d = length(p - (a + t * ab));
    float r = mix(vRadii.x, vRadii.y, t);
    float c = clamp(r - d + 0.5, 0.0, 1.0);
    gl_FragColor = vec4(c);
}
