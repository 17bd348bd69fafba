#version 100
// A stroke layer whose blend the driver's blending can do (over, erase, screen: no effect,
// no shadow, no edges): the stroke's weight L * k, drawn over the region the stroke can
// touch with the blend's factors, so nothing reads the canvas here.
#ifdef GL_FRAGMENT_PRECISION_HIGH
precision highp float;
#else
precision mediump float;
#endif

uniform sampler2D uLayer;    // L: the stroke's stamps over transparent, premultiplied
uniform vec2 uLayerTexSize;  // L's texture (a slot of several, or a target of its own)
uniform vec2 uLayerOffset;   // window pixel of L minus canvas pixel (GL axes)
uniform vec2 uOffset;        // x: the canvas's window pixel minus canvas pixel (the band, less a tile's origin);
                             // y: the canvas's bottom row, counted from the target's top
uniform float uTargetHeight; // the framebuffer's height, pixels
uniform float uOpacity;      // strokeOpacity k

void main() {
    // gl_FragCoord at the default (high) precision: exact past window pixel 1024.
    // Rows are placed through the target's height, a uniform this shader reads: Mesa's
    // softpipe turns gl_FragCoord.y with a hidden fragment-shader constant that it loads
    // again only when one of the shader's own uniforms changes (all terms are whole numbers).
    vec2 frag = gl_FragCoord.xy;
    vec2 g = vec2(floor(frag.x) - uOffset.x, floor(frag.y) - (uTargetHeight - uOffset.y));
    gl_FragColor = texture2D(uLayer, (g + uLayerOffset + 0.5) / uLayerTexSize) * uOpacity;
}
