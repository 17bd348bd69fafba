#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the fuzz targets share: the input as bytes, a scratch file for the path-based
/// readers, and the check on an error's one line.
public enum Fuzz {
    /// The input as an array.
    public static func bytes(_ data: UnsafePointer<UInt8>, _ size: Int) -> [UInt8] {
        [UInt8](UnsafeBufferPointer(start: data, count: size))
    }

    /// An error is a correct answer if its description is the one line the CLI prints, safe on
    /// a terminal (every echoed value escaped). A raw control character, a newline
    /// or a Unicode line separator in it is a finding: the target aborts.
    public static func answer(_ error: any Error) {
        let text = "\(error)"
        if let bad = text.unicodeScalars.first(where: {
            $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0.value == 0x2028 || $0.value == 0x2029
        }) {
            finding("an error's description holds the raw control character U+\(String(bad.value, radix: 16)): "
                    + text.debugDescription)
        }
    }

    /// Reports a finding on stderr and aborts, so libFuzzer keeps the input.
    public static func finding(_ what: String) -> Never {
        fputs("FINDING: \(what)\n", stderr)
        abort()
    }

    /// The scratch file's path for this process: in /dev/shm (memory; never in the
    /// repository), one name a process and a reader.
    public static func scratchPath(_ name: String) -> String {
        let base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp"
        return "\(base)/stipple-fuzz-\(getpid())-\(name)"
    }

    /// Writes `data` to `path` (replacing it). Call `remove(path)` when done.
    public static func write(_ data: UnsafePointer<UInt8>, _ size: Int, to path: String) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { fputs("fuzz: cannot write \(path)\n", stderr); abort() }
        var done = 0
        while done < size {
            let n = Glibc.write(fd, data + done, size - done)
            if n < 0 {
                if errno == EINTR { continue }
                fputs("fuzz: cannot write \(path)\n", stderr); abort()
            }
            done += n
        }
        close(fd)
    }

    public static func remove(_ path: String) { unlink(path) }

    /// The process's entry: libFuzzer's driver over `target`. SwiftPM links a debug executable's
    /// `main` to `<Target>_main` (so that tests can link executables), and with
    /// `-parse-as-library` there is no such function, so each target defines it and calls this;
    /// libFuzzer's own `main` is then not linked.
    public static func run(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
                           _ target: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt) -> CInt {
        var count = argc
        var arguments = argv
        return LLVMFuzzerRunDriver(&count, &arguments, target)
    }
}

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<CInt>,
                         _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                         _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt) -> CInt
