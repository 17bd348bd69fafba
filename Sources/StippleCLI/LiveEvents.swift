import Stipple

final class LiveEvents: Sendable {
    func layers(beforeFrame n: Int) async throws -> [LayerID] { [] }
}
