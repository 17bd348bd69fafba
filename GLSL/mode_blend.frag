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
uniform vec2 uOffset;        // the canvas's window pixel minus canvas pixel: the band, less a tile's origin
uniform float uOpacity;      // strokeOpacity k

void main() {
    // gl_FragCoord at the default (high) precision: exact past window pixel 1024.
    vec2 frag = gl_FragCoord.xy;
    vec2 g = floor(frag) - uOffset;
    gl_FragColor = texture2D(uLayer, (g + uLayerOffset + 0.5) / uLayerTexSize) * uOpacity;
}
