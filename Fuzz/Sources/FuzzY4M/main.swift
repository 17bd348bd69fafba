// libFuzzer target: YUV4MPEG2. The header parser, Y4MHeader.parse(_:file:), on the first line
// as text, then the streaming reader, Y4MReader(descriptor:name:owns:), over a pipe holding
// the whole input (as a bake reads ffmpeg's output), frame by frame to the end.
// A header whose frame needs more than 4 MiB is read but its frames are not: the inputs are
// at most 64 KiB, so such a frame can only be truncated, and the buffer is the caller's
// (a bake refuses a video larger than the driver's canvas before allocating it).
import FuzzSupport
import Stipple
#if canImport(Glibc)
import Glibc
#endif

private let maxFrameBytes = 1 << 22

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Fuzz.bytes(data, size)
    // The header parser alone, on the first line (lossy text: it takes a String).
    let line = bytes.prefix(while: { $0 != 0x0A }).prefix(Y4MHeader.maxLength + 1)
    do {
        let header = try Y4MHeader.parse(String(decoding: line, as: UTF8.self), file: "fuzz.y4m")
        if header.width < 1 || header.height < 1 || header.frameSize < 3 || header.fps <= 0 {
            Fuzz.finding("accepted header \(header)")
        }
        // The header written back parses to the same header.
        // (Bytes, not Characters: "\r\n" is one Character, and dropLast() would take the \r too.)
        let again = try Y4MHeader.parse(String(decoding: Array(header.line.utf8.dropLast()), as: UTF8.self),
                                        file: "again.y4m")
        if again != header {
            Fuzz.finding("header \(header) reads back as \(again)")
        }
    } catch {
        Fuzz.answer(error)
    }

    // The reader over a pipe: the whole input is written, the write end closed, then read.
    var fds: [Int32] = [0, 0]
    guard pipe(&fds) == 0 else { fputs("fuzz: pipe failed\n", stderr); abort() }
    _ = fcntl(fds[1], 1031 /* F_SETPIPE_SZ */, Int32(1 << 20))
    guard size <= Int(fcntl(fds[1], 1032 /* F_GETPIPE_SZ */)) else {
        close(fds[0]); close(fds[1])
        return 0  // would block: run with -max_len at most the pipe's size (64 KiB at least)
    }
    var done = 0
    while done < size {
        let n = write(fds[1], data + done, size - done)
        if n < 0 { if errno == EINTR { continue }; fputs("fuzz: pipe write failed\n", stderr); abort() }
        done += n
    }
    close(fds[1])
    do {
        let reader = try Y4MReader(descriptor: fds[0], name: "fuzz.y4m", owns: true)
        guard reader.header.frameSize <= maxFrameBytes else { return 0 }
        var frame = Y4MFrame(header: reader.header)
        while try reader.read(into: &frame) {
            if reader.offset > size || frame.bytes.count != Y4MFrame.marker.count + reader.header.frameSize {
                Fuzz.finding("reader at byte \(reader.offset) of \(size), frame of \(frame.bytes.count) bytes")
            }
        }
    } catch {
        Fuzz.answer(error)
    }
    return 0
}

/// SwiftPM's entry point for this debug executable (see Fuzz.run).
@_cdecl("FuzzY4M_main")
public func entry(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    Fuzz.run(argc, argv, fuzz)
}
