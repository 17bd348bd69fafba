import ArgumentParser
import Foundation
import Stipple
import StippleGolden

/// The folders a `stipple test` run owns: its output and golden folders, held while it runs,
/// and the goldens in it that no case owns.
extension TestCommand {
    /// The output folder (made now, marked as stipple's) and the golden folder (made now when
    /// the run may record) are this run's alone while it lasts.
    func lockFolders(goldenDir: String, writesGoldens: Bool) throws {
        do {
            try FileManager.default.createDirectory(atPath: outputDirectory, withIntermediateDirectories: true)
            if writesGoldens { try FileManager.default.createDirectory(atPath: goldenDir, withIntermediateDirectories: true) }
        } catch {
            throw InputError(file: outputDirectory, "cannot make the folder: \(OutputFile.describe(error))")
        }
        OutputFile.markOwnedFolder(outputDirectory, marker: ".stipple-test-output")
        try FolderLock.take(outputDirectory, option: "--output")
        if FileSystem.entry(at: goldenDir) == .folder { try FolderLock.take(goldenDir, option: "--golden") }
    }

    /// Goldens of no case of the suite (a script renamed or removed, a frame dropped), and
    /// files in the golden folder that are not goldens: listed, and with --prune the goldens
    /// removed (other files never are).
    func listOrphans(goldenDir: String, suite: GoldenSuite) throws {
        let found = GoldenStore(directory: goldenDir).orphans(caseNames: Set(suite.cases.map(\.name)))
        if !found.goldens.isEmpty {
            if prune {
                for g in found.goldens {
                    do { try FileManager.default.removeItem(atPath: FileSystem.resolve(g, against: goldenDir)) } catch {
                        throw InputError(file: FileSystem.resolve(g, against: goldenDir), "cannot remove: \(OutputFile.describe(error))")
                    }
                }
                print("pruned \(counted(found.goldens.count, "orphan golden")) (no case of \(suite.directory) has their names): "
                      + found.goldens.joined(separator: ", "))
            } else {
                print("\(counted(found.goldens.count, "orphan golden")) in \(goldenDir) (no case of \(suite.directory) has their "
                      + "names; --prune removes them): " + found.goldens.joined(separator: ", "))
            }
        }
        if !found.strays.isEmpty {
            print("\(counted(found.strays.count, "file")) in \(goldenDir) \(found.strays.count == 1 ? "is" : "are") not a golden "
                  + "(NAME.DRIVER.PRIMITIVE.png), left alone: " + found.strays.joined(separator: ", "))
        }
    }
}
