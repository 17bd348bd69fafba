#version 100
// Ink drawn as lines (docs/ink-formats.md, "Lines"): each chord of a stroke's curve is a
// quad around the segment from a to b, its radius going from ra at a to rb at b. Corners
// and segments are in canvas pixels (y down); the fragment shader finds each pixel's
// distance to the segment.
#ifdef GL_FRAGMENT_PRECISION_HIGH
precision highp float;
#endif
attribute vec2 aPosition;        // a corner of the chord's quad, canvas pixels
attribute vec4 aSegment;         // a.x, a.y, b.x, b.y, canvas pixels
attribute vec2 aRadii;           // ra, rb
uniform vec2 uTargetSize;        // the framebuffer, pixels
uniform vec2 uViewSize;          // the viewport from the framebuffer's corner: powers of two
uniform vec2 uOrigin;            // canvas coordinates of the framebuffer's top-left corner
varying vec4 vSegment;
varying vec2 vRadii;

void main() {
    vSegment = aSegment;
    vRadii = aRadii;
    vec2 window = vec2(aPosition.x - uOrigin.x, uTargetSize.y - (aPosition.y - uOrigin.y));
    gl_Position = vec4((window - 0.5 * uViewSize) * (2.0 / uViewSize), 0.0, 1.0);
}
