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
            b.edgeAnchor = EdgeAnchor(x: first.x, y: first.y, frame: EdgeAnchor.birthFrame(age: first.age), entry: index)
        }
        return b
    }
}
