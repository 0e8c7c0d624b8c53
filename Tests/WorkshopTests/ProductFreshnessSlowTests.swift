import Foundation
import Testing
import WorkshopCore
import WorkshopTools

/// `ProductFreshness` against what SwiftPM really leaves on disk, in a small package of its own
/// (a module Core with a resource, two programs that link it, and a dynamic library of it, as
/// ExerciseSupport is): after each change a product is stale, and after `swift build` it is
/// fresh again, also when the build compiled the change but linked nothing anew.
@Suite(.timeLimit(.minutes(20))) struct ProductFreshnessSlowTests {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("freshness-build-\(UUID().uuidString)")
    var bin: URL { root.appendingPathComponent(".build/debug") }

    func write(_ relative: String, _ text: String) throws {
        let file = root.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
    }

    func build(_ arguments: [String] = []) async throws {
        let build = try await Subprocess.run(
            "swift", ["build"] + arguments, currentDirectory: root.path, timeout: 900, in: .shared)
        try #require(build.succeeded, "\(build.stdout.suffix(2000))\(build.stderr.suffix(2000))")
    }

    /// What is stale in the program `app` and the library `Support`, as `present` and `check` ask.
    var stale: (app: String?, library: String?) {
        (
            ProductFreshness.newerSource(
                than: bin.appendingPathComponent("app"), product: "app", binDirectory: bin, packageRoot: root),
            ProductFreshness.newerSource(
                than: bin.appendingPathComponent("libSupport.so"), product: "Support", binDirectory: bin,
                packageRoot: root)
        )
    }

    func modified(_ product: String) -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: bin.appendingPathComponent(product).path))?[
            .modificationDate] as? Date
    }

    static let manifest = """
        // swift-tools-version:6.0
        import PackageDescription

        let package = Package(
            name: "Freshness",
            products: [
                .executable(name: "app", targets: ["app"]), .executable(name: "other", targets: ["other"]),
                .library(name: "Support", type: .dynamic, targets: ["Core"]),
            ],
            targets: [
                .target(name: "Core", resources: [.process("Resources")]),
                .executableTarget(name: "app", dependencies: ["Core"]),
                .executableTarget(name: "other", dependencies: ["Core"]),
            ]
        )

        """

    @Test func aProductIsFreshAfterEveryBuildEvenWhenNothingWasLinkedAnew() async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        try write("Package.swift", Self.manifest)
        try write("Sources/Core/Core.swift", "public func answer() -> Int { 1 }  // the first answer\n")
        try write("Sources/Core/Resources/words.txt", "one\n")
        try write("Sources/app/main.swift", "import Core\nprint(answer())\n")
        try write("Sources/other/main.swift", "import Core\nprint(answer() + 1)\n")
        try await build()
        #expect(stale.app == nil && stale.library == nil, "\(stale)")

        // New code built for another program only: compiled, but not yet in app or the library.
        try write("Sources/Core/Core.swift", "public func answer() -> Int { 2 }  // the first answer\n")
        try await build(["--product", "other"])
        #expect(stale.app == "Sources/Core/Core.swift" && stale.library == "Sources/Core/Core.swift", "\(stale)")
        try await build()
        #expect(stale.app == nil && stale.library == nil, "\(stale)")

        // A comment: the compiler keeps the object file, SwiftPM links nothing anew. (Not the
        // first compile after a clean build: that one writes a different object.)
        let linked = (modified("app"), modified("libSupport.so"))
        try write("Sources/Core/Core.swift", "public func answer() -> Int { 2 }  // the same answer\n")
        #expect(stale.app == "Sources/Core/Core.swift" && stale.library == "Sources/Core/Core.swift", "\(stale)")
        try await build()
        #expect(modified("app") == linked.0 && modified("libSupport.so") == linked.1, "linked anew: not the case")
        #expect(stale.app == nil && stale.library == nil, "\(stale)")

        // A resource: copied into the bundle, nothing linked.
        try write("Sources/Core/Resources/words.txt", "two\n")
        #expect(stale.app == "Sources/Core/Resources/words.txt", "\(stale)")
        try await build()
        #expect(stale.app == nil && stale.library == nil, "\(stale)")

        // The manifest: planned anew, nothing compiled.
        try write("Package.swift", Self.manifest + "// a comment\n")
        #expect(stale.app == "Package.swift" && stale.library == "Package.swift", "\(stale)")
        try await build()
        #expect(stale.app == nil && stale.library == nil, "\(stale)")
    }
}
