/// Which stamps a frame shows (docs/reference.md §3, §9): the one place that selects them. A stamp of
/// age `a` at a frame is live when it is born (a ≥ 0) and not dead (a < M when M > 0).
enum LiveStamps {
    /// Appends the stamps that are live at `offset` frames past their stored ages to `out`
    /// (with their rotations to `outRotations` when it is not nil), in order. With
    /// `rebase`, their ages become the ages at that frame (what `stipple stamps` writes and
    /// what re-uploading uploads); without, they keep their stored ages and the shader adds
    /// the offset. Returns how many were appended.
    @discardableResult
    static func select(_ stamps: UnsafeBufferPointer<SketchPoint>, rotations: UnsafeBufferPointer<Float>?,
                       offset: Float, effects: AgeEffects, rebase: Bool,
                       into out: inout [SketchPoint], rotations outRotations: inout [Float]?) -> Int {
        let before = out.count
        for i in 0..<stamps.count {
            var p = stamps[i]
            guard effects.isLive(age: p.age + offset) else { continue }
            if rebase { p.age += offset }
            out.append(p)
            outRotations?.append(rotations?[i] ?? 0)
        }
        return out.count - before
    }

    /// True when every stamp of `extent` is live at `offset`. The live ages are one interval,
    /// and adding the offset keeps ages in order (rounding is monotonic), so the least and
    /// the greatest age decide for all; a NaN age is never live.
    static func allLive(_ extent: StampExtent, offset: Float, effects: AgeEffects) -> Bool {
        extent.count == 0 || (!extent.nanAge && effects.isLive(age: extent.minAge + offset)
                                  && effects.isLive(age: extent.maxAge + offset))
    }

    /// A batch's stamps live at frame `n`, ages as at that frame: the live vertex buffer of
    /// docs/reference.md §3 for that batch.
    static func batch(_ batch: StampBatch, atFrame n: Int, effects: AgeEffects) -> StampBatch {
        var b = batch
        b.stamps = []
        b.rotations = batch.rotations == nil ? nil : []
        batch.stamps.withUnsafeBufferPointer { stamps in
            if let r = batch.rotations {
                r.withUnsafeBufferPointer { rot in
                    _ = select(stamps, rotations: rot, offset: Float(n), effects: effects, rebase: true,
                           into: &b.stamps, rotations: &b.rotations)
                }
            } else {
                _ = select(stamps, rotations: nil, offset: Float(n), effects: effects, rebase: true,
                       into: &b.stamps, rotations: &b.rotations)
            }
        }
        return b
    }
}
