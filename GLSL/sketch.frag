#version 100
// Stipple's fragment shader: brush coverage and premultiplied colour (docs/reference.md §4).
// Blending is ONE, ONE_MINUS_SRC_ALPHA: dst = src + dst * (1 - src.alpha).
#ifdef GL_FRAGMENT_PRECISION_HIGH
precision highp float;
#else
precision mediump float;
#endif

uniform sampler2D uBrush;        // coverage in the alpha channel, bilinear, clamped
varying vec4 vColor;             // straight colour after age effects
varying vec2 vRotation;          // (cos, sin) of the brush's turn, clockwise on the canvas
uniform float uTargetHeight;     // the framebuffer's height, pixels
varying vec4 vSquare;            // the stamp's square: its left edge in window pixels, its top edge in rows from the
                                 // target's top, 1/width, 1/height
#ifdef STIPPLE_QUADS
varying vec2 vBrushCoord;
#endif

void main() {
#ifdef GL_FRAGMENT_PRECISION_HIGH
    // From this pixel's centre and the stamp's square (constant over the stamp, so passed
    // exactly): the same for the same canvas pixel wherever the canvas sits in the target.
    // The rasteriser's own interpolants (gl_PointCoord) are computed from absolute window
    // positions, which would make a stamp's pixels depend on that placement. Rows are
    // counted from the target's top with a uniform this shader reads: Mesa's softpipe turns
    // gl_FragCoord.y with a hidden fragment-shader constant that is loaded again only when
    // one of the shader's own uniforms changes, so a target of a new height would otherwise
    // keep the first target's (every difference here is exact: all terms are on a 1/512 grid).
    float row = uTargetHeight - gl_FragCoord.y;
    vec2 brushCoord = vec2((gl_FragCoord.x - vSquare.x) * vSquare.z, (row - vSquare.y) * vSquare.w);
#elif defined(STIPPLE_QUADS)
    vec2 brushCoord = vBrushCoord;
#else
    vec2 brushCoord = gl_PointCoord;  // origin at the top of the point: the brush is upright
#endif
    float coverage;
#ifdef STIPPLE_TURNS
    // A varying constant over a triangle can come back a few ulps off: compare loosely.
    if (abs(vRotation.y) < 1e-6 && vRotation.x > 0.0) {
        coverage = texture2D(uBrush, brushCoord).a;
    } else {
        // Turn the brush about the stamp's centre: sample it at the inverse rotation. The
        // footprint stays the stamp's square; brush texels turned outside it are cut off,
        // and outside the brush there is no coverage.
        vec2 d = brushCoord - 0.5;
        vec2 turned = vec2(vRotation.x * d.x + vRotation.y * d.y, -vRotation.y * d.x + vRotation.x * d.y) + 0.5;
        bool inside = all(greaterThanEqual(turned, vec2(0.0))) && all(lessThanEqual(turned, vec2(1.0)));
        coverage = inside ? texture2D(uBrush, turned).a : 0.0;
    }
#else
    // No stamp drawn turns its brush: the first arm above alone. llvmpipe runs the texture
    // read of an arm its lanes skip, so this program samples the brush once, not twice.
    coverage = texture2D(uBrush, brushCoord).a;
#endif
    float a = vColor.a * coverage;
    gl_FragColor = vec4(vColor.rgb * a, a);
}
