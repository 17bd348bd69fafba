// TEMPORARY until the renderer's surfaces land on main ("Surfaces:"): removed at that merge.
struct SurfaceID: Hashable, Sendable {}
