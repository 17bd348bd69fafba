import Stipple
import CStipple
import CStippleBench

/// The benchmark's peers outside Stipple: the same GL calls issued from C, and Cairo.
enum BenchPeers {
    /// Stipple's immediate-path GL sequence from C, on the renderer's own render thread and
    /// context (so both run on the same driver state), timed there the same way.
    /// `effects`: how stamps age (none by default; stamps' ages are taken as they are).
    static func cBaseline(_ renderer: Renderer, stamps: [SketchPoint], perDraw: Int, config: BenchConfig,
                           brush: Brush, warmup: Int, reps: Int,
                           effects: AgeEffects = AgeEffects(maxAge: 0, dissolveDistance: 6)) async throws -> Timing {
        let (vertex, fragment) = try renderer.shaderSources(for: .points)
        let width = config.width, height = config.height
        let band = renderer.guardBand(for: Canvas(width: width, height: height))
        return try await renderer.runForeignGL { () throws -> Timing in
            var seconds = [Double](repeating: 0, count: reps)
            var err = [CChar](repeating: 0, count: 512)
            let rc = vertex.withCString { vs in
                fragment.withCString { fs in
                    stamps.withUnsafeBytes { raw in
                        brush.coverage.withUnsafeBufferPointer { cov in
                            var scene = stp_bench_scene(
                                vertex_source: vs, fragment_source: fs,
                                stamps: raw.baseAddress!.assumingMemoryBound(to: stp_sketch_point.self),
                                count: Int32(stamps.count), per_draw: Int32(perDraw),
                                width: Int32(width), height: Int32(height), guard_band: Int32(band),
                                brush: cov.baseAddress, brush_width: Int32(brush.width), brush_height: Int32(brush.height),
                                max_age: effects.maxAge, dissolve_distance: effects.dissolveDistance,
                                point_scale: effects.pointScale, age_offset: 0, upload_every_frame: 1)
                            return stp_bench_gl(&scene, Int32(warmup), Int32(reps), &seconds, &err, err.count)
                        }
                    }
                }
            }
            guard rc == 0 else { throw RenderError("C baseline failed: \(String(cBuffer: err))") }
            return Timing(samples: seconds)
        }
    }

    /// The same stamps drawn with Cairo on the CPU, if libcairo.so.2 is there.
    static func cairo(stamps: [SketchPoint], config: BenchConfig, brush: Brush) -> Result<Timing, RenderError> {
        var err = [CChar](repeating: 0, count: 512)
        guard stp_cairo_available(&err, err.count) == 0 else {
            return .failure(RenderError("skipped: \(String(cBuffer: err))"))
        }
        var seconds = [Double](repeating: 0, count: config.reps)
        let rc = stamps.withUnsafeBytes { raw in
            brush.coverage.withUnsafeBufferPointer { cov in
                stp_bench_cairo(raw.baseAddress!.assumingMemoryBound(to: stp_sketch_point.self), Int32(stamps.count),
                                Int32(config.width), Int32(config.height), cov.baseAddress,
                                Int32(brush.width), Int32(brush.height), 1,
                                Int32(config.warmup), Int32(config.reps), &seconds, &err, err.count)
            }
        }
        guard rc == 0 else { return .failure(RenderError("cairo failed: \(String(cBuffer: err))")) }
        return .success(Timing(samples: seconds))
    }
}
