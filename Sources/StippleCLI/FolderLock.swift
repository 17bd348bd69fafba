import Foundation
import Stipple
#if canImport(Glibc)
import Glibc
#endif

/// An exclusive lock on a folder for as long as this process runs (flock(2) on the folder
/// itself: no lock file left behind, and a killed process's lock goes with it). Two
/// `stipple test` runs on one output or golden folder would write over each other's images
/// and goldens: the second is refused, saying why.
struct FolderLock {
    /// Takes the lock of `folder` (which must exist) or throws, naming `option` and the folder.
    static func take(_ folder: String, option: String) throws(InputError) {
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }  // not a readable folder: the run's own checks say so
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let busy = errno == EWOULDBLOCK
            close(fd)
            guard busy else { return }
            throw InputError(file: folder, "another stipple test is running with this \(option) folder now (it holds the "
                             + "folder's lock); two runs at once would write over each other's images and goldens. Wait for "
                             + "it to finish, or give this run its own --output and --golden")
        }
        // Held until the process ends: the descriptor is never closed.
    }
}
