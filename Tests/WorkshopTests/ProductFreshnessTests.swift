import Foundation
import Testing
import WorkshopTools

/// `ProductFreshness`: a built product is stale when a file of a module it links (SwiftPM's own
/// list of its objects), a system library's module map or the manifest changed after it was
/// written; a change elsewhere in Sources does not count.
struct ProductFreshnessTests {
    /// A package with two modules, lesson03 and Other, and a linked lesson03 an hour old.
    struct Package {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("freshness-\(UUID().uuidString)")
        var bin: URL { root.appendingPathComponent(".build/debug") }
        var binary: URL { bin.appendingPathComponent("lesson03") }

        init(linkList: Bool = true) throws {
            let files = FileManager.default
            for folder in ["Sources/lesson03/Resources", "Sources/Lesson03Kit", "Sources/Other", "Sources/CZlib"] {
                try files.createDirectory(at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
            }
            try files.createDirectory(
                at: bin.appendingPathComponent("lesson03.product"), withIntermediateDirectories: true)
            for file in [
                "Package.swift", "Sources/lesson03/Lesson03.swift", "Sources/lesson03/Resources/Localizable.strings",
                "Sources/Lesson03Kit/Kit.swift", "Sources/Other/Other.swift", "Sources/CZlib/module.modulemap",
            ] {
                try write(file, age: 7200)
            }
            if linkList {
                let objects = ["lesson03.build/Lesson03.swift.o", "Lesson03Kit.build/Kit.swift.o"].map {
                    bin.path + "/" + $0
                }
                try Data(objects.joined(separator: "\n").utf8).write(
                    to: bin.appendingPathComponent("lesson03.product/Objects.LinkFileList"))
            }
            try Data("binary".utf8).write(to: binary)
            try age(binary, 3600)
        }

        func write(_ relative: String, age seconds: Double = 0) throws {
            let file = root.appendingPathComponent(relative)
            try Data("// \(relative)\n".utf8).write(to: file)
            try age(file, seconds)
        }

        func age(_ file: URL, _ seconds: Double) throws {
            try FileManager.default.setAttributes(
                [.modificationDate: Date().addingTimeInterval(-seconds)], ofItemAtPath: file.path)
        }

        var newer: String? {
            ProductFreshness.newerSource(than: binary, product: "lesson03", binDirectory: bin, packageRoot: root)
        }
    }

    @Test func freshUntilAFileItIsBuiltFromChanges() throws {
        let package = try Package()
        defer { try? FileManager.default.removeItem(at: package.root) }
        #expect(package.newer == nil)
        // Another module's change is not this product's.
        try package.write("Sources/Other/Other.swift")
        #expect(package.newer == nil)
        for file in ["Sources/Lesson03Kit/Kit.swift", "Sources/lesson03/Resources/Localizable.strings"] {
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
        defer { try? FileManager.default.removeItem(at: package.root) }
        #expect(package.newer == nil)
        try package.write("Sources/Other/Other.swift")
        #expect(package.newer == "Sources/Other/Other.swift")
    }

    @Test func aProductNotBuiltIsNotStaleButMissing() throws {
        let package = try Package()
        defer { try? FileManager.default.removeItem(at: package.root) }
        try FileManager.default.removeItem(at: package.binary)
        #expect(package.newer == nil)
    }
}
