import Foundation

/// Whether a built program is older than what it is built from: after a `git pull` (or an
/// edit) a lesson's binary in `.build` still runs the old code until someone builds it.
/// `workshop present` asks before it runs a lesson, and builds it first when it is stale.
public enum ProductFreshness {
    /// The package's folders `product` is built from: `Sources/<Module>` for every module of
    /// this package among the objects the build linked into it (SwiftPM's own list,
    /// `<bin>/<product>.product/Objects.LinkFileList`), with their resources, and the system
    /// libraries' module maps. Without that list (the product was never linked, or SwiftPM
    /// keeps it elsewhere), every folder in Sources: a build too many rather than a stale run.
    public static func sourceFolders(of product: String, binDirectory: URL, packageRoot: URL) -> [URL] {
        let sources = packageRoot.appendingPathComponent("Sources")
        let all = ((try? FileManager.default.contentsOfDirectory(atPath: sources.path)) ?? []).sorted()
        let list = binDirectory.appendingPathComponent("\(product).product/Objects.LinkFileList")
        guard let linked = try? String(contentsOf: list, encoding: .utf8) else {
            return all.map { sources.appendingPathComponent($0) }
        }
        // ".../debug/Lesson03Kit.build/TimelineRun.swift.o": the module is the folder's name.
        var modules = Set<String>()
        for line in linked.split(separator: "\n") {
            for component in line.split(separator: "/") where component.hasSuffix(".build") {
                modules.insert(String(component.dropLast(".build".count)))
            }
        }
        let systemLibraries = all.filter {
            FileManager.default.fileExists(atPath: sources.appendingPathComponent("\($0)/module.modulemap").path)
        }
        return all.filter { modules.contains($0) || systemLibraries.contains($0) }.map {
            sources.appendingPathComponent($0)
        }
    }

    /// A file `product` is built from that changed after `binary` was written (the manifest,
    /// the resolved dependencies, or a file under `sourceFolders`), as a path relative to the
    /// package; nil when none did (or when the binary is not there: then it is simply not built).
    public static func newerSource(than binary: URL, product: String, binDirectory: URL, packageRoot: URL)
        -> String?
    {
        guard let built = modified(binary) else { return nil }
        let root = packageRoot.standardizedFileURL.path
        func relative(_ url: URL) -> String {
            let path = url.standardizedFileURL.path
            return path.hasPrefix(root + "/") ? String(path.dropFirst(root.count + 1)) : path
        }
        for manifest in ["Package.swift", "Package.resolved"] {
            let file = packageRoot.appendingPathComponent(manifest)
            if let date = modified(file), date > built { return relative(file) }
        }
        for folder in sourceFolders(of: product, binDirectory: binDirectory, packageRoot: packageRoot) {
            let files = FileManager.default.enumerator(
                at: folder, includingPropertiesForKeys: [.contentModificationDateKey, .isRegularFileKey],
                options: [.skipsHiddenFiles])
            while let file = files?.nextObject() as? URL {
                let values = try? file.resourceValues(forKeys: [.contentModificationDateKey, .isRegularFileKey])
                if values?.isRegularFile == true, let date = values?.contentModificationDate, date > built {
                    return relative(file)
                }
            }
        }
        return nil
    }

    static func modified(_ file: URL) -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate]) as? Date
    }
}
