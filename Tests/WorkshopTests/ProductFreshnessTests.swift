import Foundation
import Testing
import WorkshopTools

/// `ProductFreshness`: a built product is stale when a file of a module it links (SwiftPM's own
/// list of its objects), a system library's module map or the manifest changed after the last
/// build that read it, or when an object it links was compiled after it; a change elsewhere in
/// Sources does not count. What counts as a build of a file is SwiftPM's own record of it (the
/// compiler's `.d` file, the resource's copy, the build plan), or a build this program ran.
struct ProductFreshnessTests {
    /// A package with the modules `linked` (each with one Swift file) and Other, and the
    /// product linked from them an hour ago; every file two hours old.
    struct Package {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("freshness-\(UUID().uuidString)")
        let product: String
        let binaryName: String
        let linked: [String]
        var bin: URL { root.appendingPathComponent(".build/debug") }
        var binary: URL { bin.appendingPathComponent(binaryName) }

        init(
            product: String = "lesson03", binaryName: String = "lesson03",
            linked: [String] = ["lesson03", "Lesson03Kit"],
            linkList: Bool = true, outputMaps: Bool = false
        ) throws {
            (self.product, self.binaryName, self.linked) = (product, binaryName, linked)
            let files = FileManager.default
            for folder in ["Sources/Other", "Sources/CZlib", "Sources/lesson03/Resources"]
                + linked.map({ "Sources/" + $0 })
            {
                try files.createDirectory(at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
            }
            try files.createDirectory(
                at: bin.appendingPathComponent("\(product).product"), withIntermediateDirectories: true)
            for file in [
                "Package.swift", "Sources/lesson03/Resources/Localizable.strings", "Sources/CZlib/module.modulemap",
            ]
                + (["Other"] + linked).map(source)
            {
                try write(file, age: 7200)
            }
            if linkList {
                let objects = linked.map { object(of: $0).path }
                try Data(objects.joined(separator: "\n").utf8).write(
                    to: bin.appendingPathComponent("\(product).product/Objects.LinkFileList"))
            }
            if outputMaps {
                for module in linked {
                    try files.createDirectory(
                        at: bin.appendingPathComponent("\(module).build"), withIntermediateDirectories: true)
                    let entry = [
                        "dependencies": dependencies(of: module).path, "object": object(of: module).path,
                        "diagnostics": bin.path + "/\(module).build/\(module).dia",
                    ]
                    try JSONEncoder().encode([
                        "": ["swift-dependencies": "primary.swiftdeps"], sourceURL(module).path: entry,
                    ])
                    .write(to: bin.appendingPathComponent("\(module).build/output-file-map.json"))
                }
            }
            try Data("binary".utf8).write(to: binary)
            try age(binary, 3600)
        }

        func source(_ module: String) -> String { "Sources/\(module)/\(module).swift" }
        func sourceURL(_ module: String) -> URL { root.appendingPathComponent(source(module)) }
        func object(of module: String) -> URL { bin.appendingPathComponent("\(module).build/\(module).swift.o") }
        func dependencies(of module: String) -> URL { bin.appendingPathComponent("\(module).build/\(module).d") }

        /// Writes `relative` (in the package), `seconds` old.
        func write(_ relative: String, age seconds: Double = 0) throws {
            try write(root.appendingPathComponent(relative), age: seconds)
        }

        func write(_ file: URL, age seconds: Double = 0) throws {
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("// \(file.lastPathComponent)\n".utf8).write(to: file)
            try age(file, seconds)
        }

        func age(_ file: URL, _ seconds: Double) throws {
            try FileManager.default.setAttributes(
                [.modificationDate: Date().addingTimeInterval(-seconds)], ofItemAtPath: file.path)
        }

        var newer: String? {
            ProductFreshness.newerSource(than: binary, product: product, binDirectory: bin, packageRoot: root)
        }

        func remove() { try? FileManager.default.removeItem(at: root) }
    }

    @Test func freshUntilAFileItIsBuiltFromChanges() throws {
        let package = try Package()
        defer { package.remove() }
        #expect(package.newer == nil)
        // Another module's change is not this product's.
        try package.write(package.source("Other"))
        #expect(package.newer == nil)
        for file in [package.source("Lesson03Kit"), "Sources/lesson03/Resources/Localizable.strings"] {
            try package.write(file)
            #expect(package.newer == file)
            try package.age(package.root.appendingPathComponent(file), 7200)
        }
        try package.write("Sources/CZlib/module.modulemap")
        #expect(package.newer == "Sources/CZlib/module.modulemap")
        try package.age(package.root.appendingPathComponent("Sources/CZlib/module.modulemap"), 7200)
        try package.write("Package.swift")
        #expect(package.newer == "Package.swift")
    }

    /// Without SwiftPM's list every folder in Sources counts: a build too many, never a stale run.
    @Test func withoutTheLinkListEverySourceCounts() throws {
        let package = try Package(linkList: false)
        defer { package.remove() }
        #expect(package.newer == nil)
        try package.write(package.source("Other"))
        #expect(package.newer == package.source("Other"))
    }

    @Test func aProductNotBuiltIsNotStaleButMissing() throws {
        let package = try Package()
        defer { package.remove() }
        try FileManager.default.removeItem(at: package.binary)
        #expect(package.newer == nil)
    }

    /// The checks' library links WorkshopServer as well as the core and the kits: a change to
    /// WorkshopServer alone makes it stale (a list of folders by hand once left it out).
    @Test func theChecksLibraryIsStaleWhenWorkshopServerChanges() throws {
        let package = try Package(
            product: "ExerciseSupport", binaryName: "libExerciseSupport.so",
            linked: ["ExerciseChecks", "WorkshopCore", "WorkshopServer", "Lesson03Kit"])
        defer { package.remove() }
        #expect(package.newer == nil)
        try package.write(package.source("WorkshopServer"))
        #expect(package.newer == package.source("WorkshopServer"))
    }

    /// A change that leaves the object code as it was (a comment) is compiled, but the compiler
    /// keeps the object file and SwiftPM does not link again: the compile (its `.d` file)
    /// is the build of that file, not the product's time, which stays older for good.
    @Test func aFileCompiledSinceItChangedIsBuiltThoughNotLinkedAgain() throws {
        let package = try Package(outputMaps: true)
        defer { package.remove() }
        let kit = package.sourceURL("Lesson03Kit")
        try package.write(kit, age: 60)
        #expect(package.newer == package.source("Lesson03Kit"))
        try package.write(package.dependencies(of: "Lesson03Kit"), age: 30)
        #expect(package.newer == nil)
        try package.write(kit)
        #expect(package.newer == package.source("Lesson03Kit"))
    }

    /// A compile that changed the object code makes the product stale until it is linked again,
    /// even when the build was of another product (the object file names its source).
    @Test func anObjectCompiledAfterTheLinkMakesItStale() throws {
        let package = try Package(outputMaps: true)
        defer { package.remove() }
        try package.write(package.object(of: "Lesson03Kit"), age: 30)
        #expect(package.newer == package.source("Lesson03Kit"))
        try package.age(package.binary, 0)
        #expect(package.newer == nil)
    }

    /// A resource is built when its copy in the target's bundle is newer than it; the manifest
    /// when SwiftPM's plan (description.json) is.
    @Test func aCopiedResourceAndAPlannedManifestAreBuilt() throws {
        let package = try Package()
        defer { package.remove() }
        let strings = "Sources/lesson03/Resources/Localizable.strings"
        try package.write(strings, age: 60)
        try package.write(package.bin.appendingPathComponent("Package_lesson03.resources/Localizable.strings"), age: 30)
        #expect(package.newer == nil)
        try package.write(strings)
        #expect(package.newer == strings)
        try package.age(package.root.appendingPathComponent(strings), 7200)

        try package.write("Package.swift", age: 60)
        #expect(package.newer == "Package.swift")
        try package.write(package.bin.appendingPathComponent("description.json"), age: 30)
        #expect(package.newer == nil)
    }

    /// A `swift build --product` this program ran and that succeeded covers every file older
    /// than its start, whatever SwiftPM left on disk.
    @Test func aRecordedBuildCoversWhatChangedBeforeItStarted() throws {
        let package = try Package()
        defer { package.remove() }
        try package.write(package.source("Lesson03Kit"), age: 60)
        #expect(package.newer == package.source("Lesson03Kit"))
        ProductFreshness.recordBuild(
            of: package.product, startedAt: Date().addingTimeInterval(-30), binDirectory: package.bin)
        #expect(package.newer == nil)
        try package.write(package.source("Lesson03Kit"))
        #expect(package.newer == package.source("Lesson03Kit"))
    }
}
