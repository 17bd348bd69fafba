#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// read(2) and write(2) under names that do not clash with methods called read and write.
#if canImport(Glibc)
@inline(__always) func sysRead(_ fd: Int32, _ p: UnsafeMutableRawPointer?, _ n: Int) -> Int { Glibc.read(fd, p, n) }
@inline(__always) func sysWrite(_ fd: Int32, _ p: UnsafeRawPointer?, _ n: Int) -> Int { Glibc.write(fd, p, n) }
#else
@inline(__always) func sysRead(_ fd: Int32, _ p: UnsafeMutableRawPointer?, _ n: Int) -> Int { Darwin.read(fd, p, n) }
@inline(__always) func sysWrite(_ fd: Int32, _ p: UnsafeRawPointer?, _ n: Int) -> Int { Darwin.write(fd, p, n) }
#endif

/// Lets a pipe hold a whole frame (up to the system's limit, `/proc/sys/fs/pipe-max-size`):
/// with the default 64 KiB, a 1280×720 frame crosses in 22 pieces, each a wake-up of the
/// process on the other end. Does nothing to a file, or where it is refused.
func enlargePipe(_ fd: Int32, toHold bytes: Int) {
    #if os(Linux)
    var info = stat()
    guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFIFO else { return }
    let setPipeSize: Int32 = 1031  // F_SETPIPE_SZ (fcntl.h, _GNU_SOURCE)
    var size = 1 << 16
    while size < bytes && size < 1 << 22 { size <<= 1 }
    while size > 1 << 16 && fcntl(fd, setPipeSize, Int32(size)) < 0 { size >>= 1 }
    #endif
}
