#version 100
// Soften and sharpen, first half of the blur: the canvas before the stroke blurred along x
// with taps at whole offsets -BLUR_RADIUS...BLUR_RADIUS, weights exp(-k^2 / (2 BLUR_SIGMA^2)) normalised, the
// canvas's border pixels repeated beyond it. Premultiplied in, premultiplied out.
#ifdef GL_FRAGMENT_PRECISION_HIGH
precision highp float;
#else
precision mediump float;
#endif

uniform sampler2D uBefore;   // the canvas before this stroke (same size and band as the canvas)
uniform vec2 uCanvasSize;    // canvas pixels
uniform vec2 uTexSize;       // the canvas texture, band included
uniform vec2 uOffset;        // window pixel minus canvas pixel (GL axes)

vec4 fetch(vec2 g) { return texture2D(uBefore, (g + uOffset + 0.5) / uTexSize); }

void main() {
    // gl_FragCoord is mediump: a driver may take floor() of it in 16 bits, which past window
    // pixel 1024 rounds the pixel centre to a neighbour. A copy at the default (high) precision keeps it exact.
    vec2 frag = gl_FragCoord.xy;
    vec2 g = floor(frag) - uOffset;
    vec4 sum = vec4(0.0);
    float total = 0.0;
    for (int i = -BLUR_RADIUS; i <= BLUR_RADIUS; i++) {
        float k = float(i);
        float w = exp(-k * k / (2.0 * BLUR_SIGMA * BLUR_SIGMA));
        vec2 q = vec2(clamp(g.x + k, 0.0, uCanvasSize.x - 1.0), clamp(g.y, 0.0, uCanvasSize.y - 1.0));
        sum += w * fetch(q);
        total += w;
    }
    gl_FragColor = sum / total;
}
