import Foundation

/// The program this process runs.
public enum RunningProgram {
    /// The running program's path. After a rebuild replaced the file this process started
    /// from, the link reads "... (deleted)": the new build at the same path is the one meant.
    public static var path: String {
        #if os(Linux)
            if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
                let deleted = " (deleted)"
                return path.hasSuffix(deleted) ? String(path.dropLast(deleted.count)) : path
            }
        #endif
        return Bundle.main.executablePath ?? CommandLine.arguments[0]
    }
}
