/// The limits live strokes (`bake --events`) are held to, checked as their events are
/// decoded, before a stamp is made (docs/limits.md): the script's own stamp and stroke-walk
/// budgets, shared with what the script's strokes used; samples per stroke; strokes open at
/// once and in all; events in all. Each stroke is walked by a counting `StrokeBuilder`,
/// culled for the video's canvas as a script's strokes are, so a far-off sample costs its
/// stamp places, not its length in pixels.
struct EventBudget {
    /// Where a live stroke's stamps can show: the video's canvas (the script's, by now).
    let cull: StrokeCull
    let fps: Double
    let seed: UInt64
    /// Live strokes number after the script's own (their dissolve angles).
    let firstIndex: Int
    private var stampsLeft: Int
    private var walkLeft: Int
    private var events = 0
    private var started = 0
    private var counters: [Int: (builder: StrokeBuilder, samples: Int)] = [:]

    init(script: Script) {
        cull = StrokeCull(width: Double(script.canvas.width), height: Double(script.canvas.height),
                          pointScale: Double(script.pointScale),
                          drift: script.maxAge > 0 ? Double(script.dissolveDistance) : 0)
        fps = script.fps
        seed = script.seed
        firstIndex = script.draw.filter { $0.stroke != nil }.count
        stampsLeft = Limits.maxStampsPerScript - script.stampsUsed
        walkLeft = Limits.maxStrokeWalkPerScript - script.walkUsed
    }

    func isOpen(_ id: Int) -> Bool { counters[id] != nil }

    /// One more event (a non-blank line).
    mutating func countEvent(_ d: ScriptDecoder, at location: InputLocation) throws(InputError) {
        events += 1
        guard events <= Limits.maxEvents else {
            throw d.fail(location, "more than \(Limits.maxEvents) events; an events source may hold at most \(Limits.maxEvents)")
        }
    }

    /// Stroke `id` starts, drawn with `style` (its cull set).
    mutating func open(_ id: Int, style: StrokeStyle, _ d: ScriptDecoder, at location: InputLocation) throws(InputError) {
        guard counters.count < Limits.maxOpenLiveStrokes else {
            throw d.fail(location, "stroke \(id) would be the \(counters.count + 1)th stroke open at once; at most "
                         + "\(Limits.maxOpenLiveStrokes) strokes may be open (started, not ended) at a time")
        }
        guard started < Limits.maxLiveStrokes else {
            throw d.fail(location, "stroke \(id) would be live stroke \(started + 1); an events source may start at most "
                         + "\(Limits.maxLiveStrokes) strokes")
        }
        counters[id] = (StrokeBuilder.counter(style: style, fps: fps, seed: seed, strokeIndex: firstIndex + started), 0)
        started += 1
    }

    /// A sample of open stroke `id`: counted, and its stamps walked without being made.
    mutating func add(_ sample: TouchSample, to id: Int, _ d: ScriptDecoder, at location: InputLocation) throws(InputError) {
        guard var c = counters[id] else { return }
        c.samples += 1
        guard c.samples <= Limits.maxSamplesPerStroke else {
            throw d.fail(location, "stroke \(id) has more than \(Limits.maxSamplesPerStroke) touch samples; "
                         + "a stroke may have at most \(Limits.maxSamplesPerStroke)")
        }
        try walk(&c.builder, id, d, location) { $0.add(sample) }
        counters[id] = c
    }

    /// Stroke `id` ends: its closing stamp is counted.
    mutating func end(_ id: Int, _ d: ScriptDecoder, at location: InputLocation) throws(InputError) {
        guard var c = counters.removeValue(forKey: id) else { return }
        try walk(&c.builder, id, d, location) { $0.end() }
    }

    private mutating func walk(_ builder: inout StrokeBuilder, _ id: Int, _ d: ScriptDecoder, _ location: InputLocation,
                               _ step: (inout StrokeBuilder) -> Void) throws(InputError) {
        let (made, walked) = (builder.made, builder.walked)
        builder.setLimits(made: made + stampsLeft, walked: walked + walkLeft)
        step(&builder)
        if builder.overLimit {
            let usedStamps = Limits.maxStampsPerScript - stampsLeft
            if builder.made - made > stampsLeft {
                throw d.fail(location, "stroke \(id) makes more stamps that can touch the canvas than are left: the script "
                             + "and its live strokes may have at most \(Limits.maxStampsPerScript) stamps in all "
                             + "(\(usedStamps) before this event); use a larger spacing or radius, or fewer samples")
            }
            throw d.fail(location, "stroke \(id) is too long for its radius and spacing: this event walks more than "
                         + "\(builder.walked - walked) stamp places (the script and its live strokes may walk "
                         + "\(Limits.maxStrokeWalkPerScript) in all, \(Limits.maxStrokeWalkPerScript - walkLeft) before it) "
                         + "or makes a segment over \(Int(StrokeStamper.maxSegmentLength)) px; is it far off the canvas?")
        }
        stampsLeft -= builder.made - made
        walkLeft -= builder.walked - walked
    }
}
