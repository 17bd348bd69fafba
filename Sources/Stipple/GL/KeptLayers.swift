/// Layer targets L kept from frame to frame for groups of stroke layers whose stamps only
/// grow (strokes being drawn, with no ageing): each holds exactly the first `count` stamps
/// of each of its members, so a later frame draws only the stamps added since. Members of a
/// group never overlap, and stamps drawn later land over those drawn before, so L comes out
/// as if drawn whole (`ModePasses.draw`).
final class KeptLayers {
    final class Layer {
        let target: Framebuffer
        /// Each member (the owner of its stamps) and how many of its first stamps L holds.
        fileprivate(set) var members: [(owner: AnyObject, count: Int)] = []
        /// What the stamps were drawn with.
        fileprivate let settings: RenderSettings
        fileprivate init(target: Framebuffer, settings: RenderSettings) { self.target = target; self.settings = settings }
    }

    private let gl: GL
    /// The least recently kept first.
    private var kept: [Layer] = []

    /// Kept targets at most, and the bytes they may hold together: the least recently used
    /// is dropped first, and a canvas too large for the budget keeps none.
    static let limit = 6
    static let budget = 128 << 20

    init(gl: GL) { self.gl = gl }

    var count: Int { kept.count }

    func releaseAll() {
        for k in kept { k.target.delete(gl) }
        kept = []
    }

    /// The kept target for a group whose members own `owners` and have `counts` stamps now
    /// (drawn with `settings`), taken out of the store: the one holding the most stamps among
    /// those that hold only these members' and none past their counts, else a new clear one.
    /// Also how many of each member's stamps it holds. Nil when the canvas is too large to
    /// keep any. Give it back with `keep` once drawn, or `discard` it.
    func take(owners: [AnyObject], counts: [Int], settings: RenderSettings,
              like canvas: Framebuffer) throws -> (Layer, held: [Int])? {
        guard KeptLayers.bytes(canvas) <= KeptLayers.budget else { return nil }
        // Targets of another size are of no use again.
        for k in kept where !fits(k.target, canvas) { k.target.delete(gl) }
        kept.removeAll { !fits($0.target, canvas) }
        var best: (index: Int, held: [Int], total: Int)?
        search: for (i, k) in kept.enumerated() where k.settings == settings {
            var held = [Int](repeating: 0, count: owners.count)
            for m in k.members {
                guard let j = owners.firstIndex(where: { $0 === m.owner }), m.count <= counts[j] else { continue search }
                held[j] = m.count
            }
            let total = held.reduce(0, +)
            if total > (best?.total ?? -1) { best = (i, held, total) }
        }
        if let best {
            return (kept.remove(at: best.index), best.held)
        }
        let t = try Framebuffer(gl: gl, width: canvas.width, height: canvas.height, guardBand: canvas.guardBand)
        t.fill(gl, red: 0, green: 0, blue: 0, alpha: 0)
        return (Layer(target: t, settings: settings), [Int](repeating: 0, count: owners.count))
    }

    /// Stores `k`, drawn: it now holds the first `counts` stamps of `owners`.
    func keep(_ k: Layer, owners: [AnyObject], counts: [Int]) {
        k.members = zip(owners, counts).map { ($0, $1) }
        kept.append(k)
        while kept.count > KeptLayers.limit || kept.reduce(0, { $0 + KeptLayers.bytes($1.target) }) > KeptLayers.budget {
            kept.removeFirst().target.delete(gl)
        }
    }

    /// Frees a kept target that was taken and not drawn.
    func discard(_ k: Layer) { k.target.delete(gl) }

    private static func bytes(_ t: Framebuffer) -> Int { t.targetWidth * t.targetHeight * 4 }

    private func fits(_ t: Framebuffer, _ canvas: Framebuffer) -> Bool {
        t.width == canvas.width && t.height == canvas.height && t.guardBand == canvas.guardBand
    }
}
