/// The script's budget for strokes: stamps made and places walked, counted before any stamp
/// is made (docs/limits.md).
extension ScriptDecoder {
    /// Makes a stroke's stamps, counting them against the script's limits as they are made
    /// (the walk stops once one is passed, and the entry is refused), and returns them for
    /// the scene.
    mutating func checkStampBudget(of stroke: StrokeSpec, script: Script, entry: JSONValue,
                                           what: String) throws(InputError) -> MadeStamps {
        // The stamps are made in the same walk that counts them, and kept for the scene.
        let (count, stamps) = StrokeBuilder.stamps(for: stroke.samples, style: stroke.style, fps: script.touchRate,
                                                   seed: script.seed, strokeIndex: stroke.index,
                                                   madeLimit: Limits.maxStampsPerScript - stampTotal,
                                                   walkLimit: Limits.maxStrokeWalkPerScript - walkTotal)
        if count.overLimit {
            if count.made > Limits.maxStampsPerScript - stampTotal {
                throw fail(entry.location, "the stroke in \(what) makes more than \(count.made) stamps that can touch the canvas, "
                           + "and a script may have at most \(Limits.maxStampsPerScript) stamps in all (\(stampTotal) before this entry); "
                           + "use a larger spacing or radius, or fewer samples")
            }
            if count.nearCanvasTooLong {
                throw fail(entry.location, "the stroke in \(what) has a segment that stays within its stamps' reach of the canvas "
                           + "for over a million px (its stamps reach so far, with this radius, pointScale and dissolveDistance, "
                           + "that almost nothing is culled); are its samples far off the canvas?")
            }
            let places = count.walked
            let limit = Limits.maxStrokeWalkPerScript
            let segment = Int(StrokeStamper.maxSegmentLength)
            throw fail(entry.location, "the stroke in \(what) is too long for its radius and spacing: it walks more than \(places) stamp places "
                       + "(a script's strokes may walk \(limit) in all, \(walkTotal) before this entry) or has a segment over \(segment) px; "
                       + "are its samples far off the canvas?")
        }
        stampTotal += count.made
        walkTotal += count.walked
        return MadeStamps(stroke: stroke, fps: script.touchRate, seed: script.seed, stamps: stamps ?? [])
    }
}
