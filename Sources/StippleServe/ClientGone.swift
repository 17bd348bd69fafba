import NIOConcurrencyHelpers
import NIOCore

/// Tells when a connection's client has gone (it closed its side, or the connection ended)
/// while a request on it is still being answered: a browser that drops a tile closes the
/// connection the tile was coming on, and the tile's claim ends with it. Lives in each
/// connection's pipeline and passes everything on.
final class ClientGone: ChannelDuplexHandler, RemovableChannelHandler, @unchecked Sendable {
    // Unchecked: every field is touched on the connection's event loop only.
    typealias InboundIn = NIOAny
    typealias OutboundIn = NIOAny
    private var gone = false
    private var callbacks: [(watch: Watch, call: @Sendable () -> Void)] = []

    /// One request's watch: ended once its answer is sent, after which it is never called.
    final class Watch: Sendable {
        private let ended = NIOLockedValueBox(false)
        func end() { ended.withLockedValue { $0 = true } }
        var isEnded: Bool { ended.withLockedValue { $0 } }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) { context.fireChannelRead(data) }
    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        context.write(data, promise: promise)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let e = event as? ChannelEvent, e == .inputClosed { fire() }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        fire()
        context.fireChannelInactive()
    }

    private func fire() {
        guard !gone else { return }
        gone = true
        let c = callbacks
        callbacks = []
        for (w, f) in c where !w.isEnded { f() }
    }

    /// Calls `f` when the client of `channel` has gone (at once if it already has), unless
    /// the watch returned has ended by then.
    static func whenGone(_ channel: any Channel, _ f: @escaping @Sendable () -> Void) -> Watch {
        let watch = Watch()
        channel.pipeline.handler(type: ClientGone.self).whenSuccess { handler in
            // On the event loop: the future completes there. Ended watches go as new ones come,
            // so a long-lived connection's list stays as long as its requests in flight.
            handler.callbacks.removeAll { $0.watch.isEnded }
            if handler.gone { f() } else { handler.callbacks.append((watch, f)) }
        }
        return watch
    }
}
