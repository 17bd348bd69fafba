import CStipple
import Foundation
import Stipple
import StippleGolden
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// SIGINT and SIGTERM as a request to stop a golden run gently: no case starts after the
/// first, the reports are written for the cases that ran, and the process exits 130 or 143
/// (128 + the signal). A second signal ends it at once, as the signal would.
final class StopOnSignals: Sendable {
    let stop = GoldenRunner.Stop()
    // Unchecked: written once in init, only read after.
    nonisolated(unsafe) private var sources: [DispatchSourceSignal] = []
    private let caught = Mutex<Int32?>(nil)

    init() {
        for (sig, name) in [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM")] {
            // A signal the parent had ignored (nohup) stays ignored.
            if TemporaryFiles.isIgnored(sig) { continue }
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { [weak self] in
                guard let self else { return }
                if self.caught.withLock({ $0 }) != nil { TemporaryFiles.endBySignal(sig) }
                self.caught.withLock { $0 = sig }
                self.stop.stop(name)
                FileHandle.standardError.write(Data(("stipple test: \(name): no further case starts; the reports are written "
                                                     + "for the cases that ran (send it again to quit at once)\n").utf8))
            }
            source.resume()
            sources.append(source)
        }
    }

    /// Makes standard output line-buffered, so that each line reaches a file or pipe as it is
    /// printed (C's default there is a block at a time, lost to a kill).
    static func flushEachLine() {
        stp_stdout_line_buffered()
    }

    /// 128 + the signal caught, or nil.
    var exitStatus: Int32? { caught.withLock { $0 }.map { 128 + $0 } }
}
