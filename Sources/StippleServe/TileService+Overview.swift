import Stipple

/// The overview the previews are cut from, drawn again where the drawing changed.
extension TileService {
    func setOverview(_ image: Image) { previews.setOverview(image) }

    /// Draws the overview again where the drawing changed: each changed box a patch of its
    /// own, a few milliseconds each (changes that come meanwhile wait for the next round).
    /// Never the union of the changes: strokes landing all over a large drawing would make
    /// that the whole drawing, seconds of the render thread that exact tiles wait behind.
    func patchOverview() {
        guard !patching, previews.overview != nil else { return }
        let patches = previews.takeStale()
        guard !patches.isEmpty else { return }
        patching = true
        let (drawing, renderer) = (self.drawing, self.renderer)
        Task(executorPreference: TileWorkers.shared) {
            for p in patches {
                let (scene, frame, _) = await drawing.snapshot(touching: p.box)
                if let patch = try? await renderer.renderPreview(scene, frame: frame, view: p.view) { await self.patched(patch, at: p.origin) }
            }
            await self.patchesDone()
        }
    }

    func patched(_ patch: Image, at origin: (x: Int, y: Int)) { previews.patchOverview(patch, at: origin) }

    func patchesDone() {
        patching = false
        patchOverview()
    }
}
