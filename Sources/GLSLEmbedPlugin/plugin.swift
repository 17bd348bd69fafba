import Foundation
import PackagePlugin

/// Embeds every `GLSL/*.vert` and `GLSL/*.frag` of the package into generated Swift.
@main
struct GLSLEmbedPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let glsl = context.package.directoryURL.appendingPathComponent("GLSL")
        let names = try FileManager.default.contentsOfDirectory(atPath: glsl.path)
            .filter { $0.hasSuffix(".vert") || $0.hasSuffix(".frag") }
            .sorted()
        let inputs = names.map { glsl.appendingPathComponent($0) }
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("EmbeddedShaders.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(names.count) shaders from GLSL/",
                executable: try context.tool(named: "GLSLEmbedTool").url,
                arguments: [output.path] + inputs.map(\.path),
                inputFiles: inputs,
                outputFiles: [output]
            ),
        ]
    }
}
