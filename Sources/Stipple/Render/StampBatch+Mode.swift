extension StampBatch {
    /// This batch with its entry's brush mode, and where "detect edges" picks its reference:
    /// a stroke's first touch sample at the frame it is born, or a stamps entry's first stamp.
    func withMode(_ entry: DrawEntry, index: Int, fps: Double) -> StampBatch {
        guard let mode = entry.mode else { return self }
        var b = self
        b.mode = mode
        guard mode.edgeTolerance != nil else { return b }
        if let first = entry.stroke?.samples.first {
            let frame = (first.t * fps + 1e-9).rounded(.down)
            b.edgeAnchor = EdgeAnchor(x: first.x, y: first.y, frame: Int(max(-1e9, min(1e9, frame))), entry: index)
        } else if let first = entry.stamps.first {
            // Born at the first frame where its age is 0 or more.
            let frame = (-first.age).rounded(.up)
            b.edgeAnchor = EdgeAnchor(x: first.x, y: first.y, frame: Int(max(-1e9, min(1e9, frame.isFinite ? frame : 0))), entry: index)
        }
        return b
    }
}
