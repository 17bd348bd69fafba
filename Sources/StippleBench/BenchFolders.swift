import Foundation

/// Where the scenarios that write many files put them.
extension BenchSuite {
    /// A new folder named `name`-<unique> for a scenario's files: in /dev/shm where the system
    /// has a writable memory-backed folder with `bytes` free and as many to spare, else in the
    /// temporary folder. The caller removes it. In memory the figures are the tools' and not the
    /// disk's: on an ext4 disk, how long a step that writes hundreds of megabytes takes moves with
    /// what the steps before it wrote and deleted, and 300 busy frames written to /tmp took
    /// 1.49–1.76 times their `--compression 0` time where the same runs in /dev/shm took
    /// 1.03–1.21 times.
    static func outputFolder(_ name: String, bytes: Int) throws -> String {
        let base = memoryBackedFolder(bytes: 2 * bytes) ?? NSTemporaryDirectory()
        let folder = (base as NSString).appendingPathComponent("\(name)-" + UUID().uuidString)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    /// /dev/shm where it is a writable folder with at least `bytes` free, else nil (a container's
    /// /dev/shm is often 64 MB).
    private static func memoryBackedFolder(bytes: Int) -> String? {
        var isFolder: ObjCBool = false
        let path = "/dev/shm"
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue,
              FileManager.default.isWritableFile(atPath: path) else { return nil }
        var fs = statvfs()
        guard statvfs(path, &fs) == 0, Double(fs.f_bavail) * Double(fs.f_frsize) >= Double(bytes) else { return nil }
        return path
    }
}
