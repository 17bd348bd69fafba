#version 100
// Stipple's fragment shader: brush coverage and premultiplied colour (SPEC §4).
// Blending is ONE, ONE_MINUS_SRC_ALPHA: dst = src + dst * (1 - src.alpha).
#ifdef GL_FRAGMENT_PRECISION_HIGH
precision highp float;
#else
precision mediump float;
#endif

uniform sampler2D uBrush;        // coverage in the alpha channel, bilinear, clamped
varying vec4 vColor;             // straight colour after age effects
#ifdef STIPPLE_QUADS
varying vec2 vBrushCoord;
#endif

void main() {
#ifdef STIPPLE_QUADS
    vec2 brushCoord = vBrushCoord;
#else
    vec2 brushCoord = gl_PointCoord;  // origin at the top of the point: the brush is upright
#endif
    float a = vColor.a * texture2D(uBrush, brushCoord).a;
    gl_FragColor = vec4(vColor.rgb * a, a);
}
