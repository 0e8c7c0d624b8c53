import Foundation

/// Whether a built product (a lesson's program, the checks' library) is older than what it is
/// built from: after a `git pull` or an edit, the file in `.build` still holds the old code
/// until someone builds it. `workshop present` asks before it runs a lesson, `workshop check`
/// before it links the library, and each builds the product first when it is stale.
///
/// The rule reads SwiftPM's own records, not a list of folders: the product's inputs are the
/// modules it linked (`<bin>/<product>.product/Objects.LinkFileList`) and the files SwiftPM
/// compiles for each (`<Module>.build/output-file-map.json`). A file counts as built by the
/// latest evidence of a build that read it:
/// - a Swift file: its compile (the `.d` file the map names; the compiler writes it on every
///   compile that succeeds and deletes it on one that fails). Not the product's time: when a
///   change leaves the object code as it was (a comment), the compiler keeps the object file
///   and SwiftPM does not link again, so the product stays older than the file for good;
/// - a resource: its copy in the module's bundle (`<bin>/<Package>_<Target>.resources`);
/// - `Package.swift` and `Package.resolved`: the build plan SwiftPM wrote from them
///   (`<bin>/description.json`);
/// - any file: the product itself, or the last `swift build --product` of it that this
///   program ran and that succeeded (`recordBuild`).
///
/// And the product holds what was compiled: no object in its link list is newer than it.
public enum ProductFreshness {
    /// A file `product` is built from that changed after the last build that read it, or an
    /// object compiled after the product was linked, as a path relative to the package; nil
    /// when there is none (or when `binary` is not there: then it is simply not built).
    public static func newerSource(than binary: URL, product: String, binDirectory: URL, packageRoot: URL)
        -> String?
    {
        guard let linked = modified(binary.resolvingSymlinksInPath()) else { return nil }
        let lastBuild = max(linked, modified(stamp(of: product, binDirectory: binDirectory)) ?? .distantPast)
        let root = packageRoot.standardizedFileURL.path
        func relative(_ path: String) -> String {
            path.hasPrefix(root + "/") ? String(path.dropFirst(root.count + 1)) : path
        }
        let planned = max(lastBuild, modified(binDirectory.appendingPathComponent("description.json")) ?? .distantPast)
        for manifest in ["Package.swift", "Package.resolved"] {
            let file = packageRoot.appendingPathComponent(manifest)
            if let date = modified(file), date > planned { return relative(file.path) }
        }
        let inputs = Inputs(of: product, binDirectory: binDirectory, packageRoot: packageRoot)
        for folder in inputs.folders {
            let files = FileManager.default.enumerator(
                at: folder, includingPropertiesForKeys: [.contentModificationDateKey, .isRegularFileKey],
                options: [.skipsHiddenFiles])
            while let file = files?.nextObject() as? URL {
                let values = try? file.resourceValues(forKeys: [.contentModificationDateKey, .isRegularFileKey])
                guard values?.isRegularFile == true, let date = values?.contentModificationDate, date > lastBuild
                else { continue }
                let path = file.standardizedFileURL.path
                let built = inputs.compiled[path].flatMap(modified) ?? inputs.copy(of: relative(path)).flatMap(modified)
                if built.map({ date > $0 }) ?? true { return relative(path) }
            }
        }
        for object in inputs.objects {
            if let date = modified(URL(fileURLWithPath: object)), date > linked {
                return relative(inputs.sourceOfObject[object] ?? object)
            }
        }
        return nil
    }

    /// Records that `swift build --product <product>` started at `start` and succeeded: every
    /// file older than `start` is in the product from then on, whether SwiftPM relinked it or not.
    public static func recordBuild(of product: String, startedAt start: Date, binDirectory: URL) {
        let file = stamp(of: product, binDirectory: binDirectory)
        try? FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        guard FileManager.default.createFile(atPath: file.path, contents: Data()) else { return }
        try? FileManager.default.setAttributes([.modificationDate: start], ofItemAtPath: file.path)
    }

    /// The objects SwiftPM linked into `product` (`<bin>/<product>.product/Objects.LinkFileList`),
    /// nil when there is no list (never linked, or SwiftPM keeps it elsewhere).
    static func linkedObjects(of product: String, binDirectory: URL) -> [String]? {
        let list = binDirectory.appendingPathComponent("\(product).product/Objects.LinkFileList")
        guard let linked = try? String(contentsOf: list, encoding: .utf8) else { return nil }
        return linked.split(separator: "\n").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "'\" ")) }
    }

    /// The modules linked into `product`, by name ("Lesson03Kit", "WorkshopCore", and the
    /// dependencies' modules): each object's folder is its module's (`<bin>/Lesson03Kit.build/`).
    /// Nil when there is no link list.
    public static func linkedModules(of product: String, binDirectory: URL) -> Set<String>? {
        linkedObjects(of: product, binDirectory: binDirectory).map { objects in
            Set(
                objects.map { ($0 as NSString).deletingLastPathComponent }.filter { $0.hasSuffix(".build") }.map {
                    String(($0 as NSString).lastPathComponent.dropLast(".build".count))
                })
        }
    }

    static func stamp(of product: String, binDirectory: URL) -> URL {
        binDirectory.appendingPathComponent("workshop-builds/\(product)")
    }

    /// What `product` is built from, as SwiftPM recorded it.
    struct Inputs {
        /// The package's folders of the modules linked into it (`Sources/<Target>`), and the
        /// system libraries' (those with a `module.modulemap`). Without the link list (never
        /// linked, or SwiftPM keeps it elsewhere), every folder in Sources: a build too many
        /// rather than a stale run.
        var folders: [URL] = []
        /// The objects linked into it.
        var objects: [String] = []
        /// Each Swift file's dependency file (`.d`), rewritten by each compile of it that succeeds.
        var compiled: [String: URL] = [:]
        var sourceOfObject: [String: String] = [:]
        /// The resource bundles next to the product (`<Package>_<Target>.resources`).
        let bundles: [String]
        let binDirectory: URL

        init(of product: String, binDirectory: URL, packageRoot: URL) {
            let files = FileManager.default
            let sources = packageRoot.appendingPathComponent("Sources")
            let all = ((try? files.contentsOfDirectory(atPath: sources.path)) ?? []).sorted()
            self.binDirectory = binDirectory
            bundles = ((try? files.contentsOfDirectory(atPath: binDirectory.path)) ?? []).filter {
                $0.hasSuffix(".resources")
            }
            guard let linked = ProductFreshness.linkedObjects(of: product, binDirectory: binDirectory) else {
                folders = all.map { sources.appendingPathComponent($0) }
                return
            }
            // ".../debug/Lesson03Kit.build/TimelineRun.swift.o": the folder holds the module's map.
            objects = linked
            let root = packageRoot.standardizedFileURL.path + "/"
            var targets = Set<String>()
            for build in Set(objects.map { ($0 as NSString).deletingLastPathComponent }) where build.hasSuffix(".build")
            {
                let map = URL(fileURLWithPath: build).appendingPathComponent("output-file-map.json")
                let entries =
                    (try? Data(contentsOf: map)).flatMap {
                        try? JSONDecoder().decode([String: [String: String]].self, from: $0)
                    } ?? [:]
                var found = false
                for (source, outputs) in entries where source.hasPrefix(root) {
                    // "Sources/lesson03/Lesson03.swift": the target's folder is the first two names.
                    let names = source.dropFirst(root.count).split(separator: "/")
                    guard names.count > 2, !names[0].hasPrefix(".") else { continue }
                    targets.insert(names[0] + "/" + names[1])
                    found = true
                    if let dependencies = outputs["dependencies"] {
                        compiled[source] = URL(fileURLWithPath: dependencies)
                    }
                    if let object = outputs["object"] { sourceOfObject[object] = source }
                }
                let module = String((build as NSString).lastPathComponent.dropLast(".build".count))
                if !found && all.contains(module) { targets.insert("Sources/" + module) }
            }
            let systemLibraries = all.filter {
                files.fileExists(atPath: sources.appendingPathComponent("\($0)/module.modulemap").path)
            }
            folders = (targets.sorted() + systemLibraries.map { "Sources/" + $0 }).map {
                packageRoot.appendingPathComponent($0)
            }
        }

        /// A resource's copy in its target's bundle: `Sources/T/Resources/ja.lproj/X.strings`
        /// (relative to the package) is `<Package>_T.resources/ja.lproj/X.strings` (`.process`
        /// keeps a localization's folder and flattens the rest; `.copy` keeps the folder it names).
        func copy(of relative: String) -> URL? {
            let names = relative.split(separator: "/").map(String.init)
            guard names.count > 3, let bundle = bundles.first(where: { $0.hasSuffix("_\(names[1]).resources") })
            else { return nil }
            let inside = names[2...]
            return inside.indices.map {
                binDirectory.appendingPathComponent(bundle + "/" + inside[$0...].joined(separator: "/"))
            }.first { FileManager.default.fileExists(atPath: $0.path) }
        }
    }

    static func modified(_ file: URL) -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate]) as? Date
    }
}
