import CStipple

/// Where the passes read a group's layer L: its texture, the texture's size, and the window
/// pixel of canvas pixel (0, 0) less that pixel, in GL's axes (y up).
struct LayerSource {
    let texture: GLuint
    let textureWidth: Int, textureHeight: Int
    let offsetX: Int, offsetY: Int

    /// L in `texture` (`textureWidth` × `textureHeight`), holding a target like `canvas`
    /// (of a canvas `canvasHeight` tall) from window row `row` up.
    init(texture: GLuint, textureWidth: Int, textureHeight: Int, row: Int, like canvas: Framebuffer, canvasHeight: Int) {
        self.texture = texture
        (self.textureWidth, self.textureHeight) = (textureWidth, textureHeight)
        offsetX = canvas.guardBand - canvas.originX
        offsetY = row + canvas.targetHeight - canvasHeight - canvas.guardBand + canvas.originY
    }
}

/// The layer targets L of groups of stroke layers drawn one after another, as slots of one
/// target (each the canvas target's size, stacked in rows): the stamps of several groups
/// are drawn into their slots in one go, before any of them meets the canvas, so the driver
/// switches between L and the canvas once for them all, not once a group. A slot stays
/// transparent but where stamps were drawn into it since it was last made transparent
/// (its ink), so making it transparent again costs those stamps' pixels, not the slot's.
final class LayerAtlas {
    private let gl: GL
    private let maxTextureSize: Int
    private var target: Framebuffer?
    /// One slot's size (the canvas target's, band included) and band.
    private var slotWidth = 0, slotHeight = 0, band = 0
    private(set) var slots = 0
    /// For each slot, the rectangles (slot-relative window pixels) drawn into since it was
    /// last made transparent.
    private var ink: [[PixelBox]] = []

    /// Slots at most, and the bytes they may take together (at least one slot is made).
    static let maxSlots = 4
    static let budget = 32 << 20

    init(gl: GL, maxTextureSize: Int) {
        self.gl = gl
        self.maxTextureSize = maxTextureSize
    }

    var isAllocated: Bool { target != nil }

    func release() {
        target?.delete(gl)
        target = nil
        (slots, ink) = (0, [])
    }

    /// How many slots there are for `groups` groups drawn on targets like `canvas`, one at
    /// least: the atlas is made again when the canvas target's size changes or more slots
    /// are wanted, and may hold fewer (the texture's largest size, the budget).
    func prepare(groups: Int, like canvas: Framebuffer) throws -> Int {
        let (w, h) = (canvas.targetWidth, canvas.targetHeight)
        let fit = max(1, min(LayerAtlas.maxSlots, maxTextureSize / h, LayerAtlas.budget / max(1, w * h * 4)))
        let wanted = max(1, min(groups, fit))
        if target != nil, slotWidth == w, slotHeight == h, band == canvas.guardBand, slots >= wanted { return slots }
        release()
        // A framebuffer whose canvas is the slots less one band top and bottom: its target is the slots exactly.
        target = try Framebuffer(gl: gl, width: canvas.width, height: wanted * h - 2 * canvas.guardBand,
                                 guardBand: canvas.guardBand)
        (slotWidth, slotHeight, band, slots) = (w, h, canvas.guardBand, wanted)
        // A new texture holds anything: cleared whole, the driver's fast path, once.
        target?.fill(gl, red: 0, green: 0, blue: 0, alpha: 0)
        ink = [[PixelBox]](repeating: [], count: wanted)
        return wanted
    }

    /// Binds the atlas with drawing limited to `slot` (the scissor, left on), and returns it
    /// placed so that a canvas target like `canvas` drawn into it lands in the slot: its
    /// origin moved up by the slots above (the rows of a target run bottom to top, a
    /// canvas's top to bottom). Also returns the slot's ink, now taken: the caller makes
    /// those rectangles (atlas window pixels) transparent.
    func bind(_ slot: Int, like canvas: Framebuffer) -> (target: Framebuffer, ink: [PixelBox])? {
        precondition(slot < slots && canvas.targetWidth == slotWidth && canvas.targetHeight == slotHeight, "a prepared slot")
        guard let target = placed(slot, like: canvas) else { return nil }
        target.bind(gl)
        gl.enable(GLenum(GL_SCISSOR_TEST))
        gl.scissor(x: 0, y: slot * slotHeight, width: slotWidth, height: slotHeight)
        defer { ink[slot] = [] }
        return (target, ink[slot].map { $0.shifted(0, slot * slotHeight) })
    }

    /// The atlas placed as `bind` places it for `slot`, not bound (to read L back).
    func placed(_ slot: Int, like canvas: Framebuffer) -> Framebuffer? {
        guard let target else { return nil }
        target.originX = canvas.originX
        target.originY = canvas.originY - (slots - 1 - slot) * slotHeight
        return target
    }

    /// Records what was drawn into `slot` (slot-relative window pixels).
    func inked(_ slot: Int, _ rects: [PixelBox]) { ink[slot] = rects }


    /// Where the passes read `slot` for a canvas target like `canvas` (of a canvas
    /// `canvasHeight` tall).
    func source(_ slot: Int, like canvas: Framebuffer, canvasHeight: Int) -> LayerSource {
        LayerSource(texture: target?.texture ?? 0, textureWidth: slotWidth, textureHeight: slots * slotHeight,
                    row: slot * slotHeight, like: canvas, canvasHeight: canvasHeight)
    }
}
