import ArgumentParser
import ExerciseChecks
import Foundation
import WorkshopCore
import WorkshopTools

/// `--timeout`: how long a check program may run before it is stopped (an endless loop, a wait
/// that nothing ends). Its memory is limited too (2 GB; WORKSHOP_CHECK_MEMORY_MB sets another).
struct CheckLimits: ParsableArguments {
    @Option(
        name: .customLong("timeout"), parsing: .unconditional,
        help: ArgumentHelp(
            localized(
                format: "Seconds the checks may run before they are stopped (1-3600; default %d, or %@).",
                Int(ExerciseRunner.defaultRunTimeout), ExerciseRunner.timeoutVariable),
            valueName: "seconds"))
    var timeout: Double?

    func validate() throws {
        if let timeout, !(1...3_600).contains(timeout) {
            throw ValidationError(
                localized(format: "--timeout must be between 1 and 3600 seconds (got %@)", "\(timeout)"))
        }
    }

    /// A runner with these limits, speaking the CLI's language.
    func runner(_ toolchain: Toolchain = .current) -> ExerciseRunner {
        var runner = ExerciseRunner(toolchain: toolchain)
        if let timeout { runner.runTimeout = timeout }
        runner.japanese = Language.current == .ja
        return runner
    }
}
