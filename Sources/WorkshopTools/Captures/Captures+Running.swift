import Foundation
import WorkshopCore

extension Captures {
    /// What one run printed: its standard output, then its standard error, as lines.
    public struct Run: Sendable {
        public var command: Command
        public var lines: [String]
        public var seconds: Double
        /// Why the run cannot be written or compared (it timed out, was killed, did not start); nil when it ended.
        public var problem: String?
    }

    /// Runs the commands of captures: the package's built programs (`lessonNN`, `fixture-server`,
    /// `workshop` in `binDirectory`), each with `--lang` and a time limit, stdin empty, no
    /// colour, no terminal; `workshop` in a throwaway copy of the exercises as shipped, so
    /// that neither the learner's files nor their progress change what it prints (or are changed).
    public struct Runner: Sendable {
        public var binDirectory: URL
        public var root: URL
        /// Added to (or, with nil, taken out of) this process's environment for every run.
        public var environment: [String: String?]

        public init(binDirectory: URL, root: URL, environment: [String: String?] = [:]) {
            self.binDirectory = binDirectory
            self.root = root
            self.environment = environment
        }

        /// Runs `command`; with `picture`, adds `--svg picture` and leaves out the line that says
        /// where the picture was written (the command the text shows has no `--svg`).
        public func run(_ command: Command, timeout: Double = Captures.defaultTimeout, picture: URL? = nil) -> Run {
            let started = Date()
            let program = binDirectory.appendingPathComponent(command.product).path
            guard FileManager.default.isExecutableFile(atPath: program) else {
                return Run(command: command, lines: [], seconds: 0, problem: "\(program) is not built")
            }
            var environment = ProcessInfo.processInfo.environment
            for name in ["LC_ALL", "LC_MESSAGES", "TERM", "COLUMNS"] { environment[name] = nil }
            environment["LANG"] = "C.UTF-8"
            environment["NO_COLOR"] = "1"
            for (name, value) in self.environment { environment[name] = value }
            var scratch: URL?
            defer { if let scratch { try? FileManager.default.removeItem(at: scratch) } }
            if command.product == "workshop" {
                do { scratch = try shippedWorkshop() } catch {
                    return Run(command: command, lines: [], seconds: 0, problem: "\(error)")
                }
                environment["WORKSHOP_ROOT"] = scratch?.path
            }
            let outcome: Subprocess.Outcome
            do {
                outcome = try Subprocess.run(
                    program,
                    command.arguments + (picture.map { ["--svg", $0.path] } ?? []) + [
                        "--lang", command.language.rawValue,
                    ],
                    environment: environment,
                    currentDirectory: (scratch ?? root).path, timeout: timeout)
            } catch {
                return Run(command: command, lines: [], seconds: 0, problem: "could not start \(program): \(error)")
            }
            let seconds = Date().timeIntervalSince(started)
            if outcome.timedOut || outcome.signaled {
                return Run(
                    command: command, lines: [], seconds: seconds, problem: outcome.describeEnd(timeout: timeout))
            }
            var text = outcome.stdout
            if !outcome.stderr.isEmpty {
                if !text.isEmpty && !text.hasSuffix("\n") { text += "\n" }
                text += outcome.stderr
            }
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
                Captures.withoutTerminalCodes(String($0))
            }
            if let picture { lines.removeAll { $0.contains(picture.path) } }
            while lines.last?.isEmpty == true { lines.removeLast() }
            return Run(command: command, lines: lines, seconds: seconds, problem: nil)
        }

        /// A folder with the exercises as shipped (their texts, `.meta`, the learner's files as
        /// they shipped) and a Package.swift: a workshop of its own, removed after the run.
        func shippedWorkshop() throws -> URL {
            let files = FileManager.default
            let folder = files.temporaryDirectory.appendingPathComponent("sakusaku-capture-\(UUID().uuidString)")
            try files.createDirectory(at: folder, withIntermediateDirectories: true)
            try files.copyItem(
                at: root.appendingPathComponent("Exercises"), to: folder.appendingPathComponent("Exercises"))
            for exercise in ExerciseCatalog.load(root: root).exercises {
                for (file, data) in try ShippedFiles.sources(exercise, root: root) {
                    try data.write(to: folder.appendingPathComponent(exercise.directory + "/" + file))
                }
            }
            try Data("// swift-tools-version:6.0\n".utf8).write(to: folder.appendingPathComponent("Package.swift"))
            return folder
        }
    }

    /// The distinct commands of `blocks`' captures, in the order they first appear, each with
    /// the longest time limit any of its markers gives and the pictures they name.
    public static func commands(of blocks: [Block]) -> [(command: Command, timeout: Double, pictures: [String])] {
        var order: [Command] = []
        var timeouts: [Command: Double] = [:]
        var pictures: [Command: [String]] = [:]
        for block in blocks {
            guard case .success(let marker) = block.marker, let command = marker.command else { continue }
            if timeouts[command] == nil { order.append(command) }
            timeouts[command] = max(timeouts[command] ?? 0, marker.timeout)
            for picture in marker.pictures where !(pictures[command] ?? []).contains(picture) {
                pictures[command, default: []].append(picture)
            }
        }
        return order.map { ($0, timeouts[$0] ?? defaultTimeout, pictures[$0] ?? []) }
    }
}
