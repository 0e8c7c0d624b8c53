import Foundation
import WorkshopCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The signals that can still reach the presenter while keys are read one by one (the
/// terminal's own Ctrl-C arrives as a key then): SIGINT from a pipe's Ctrl-C or `kill`,
/// SIGTERM, and SIGHUP when the terminal goes away. SIGINT during a run stops the lesson and
/// keeps the presenter on its step; otherwise each one stops the run, puts the terminal back
/// and ends the presenter.
enum PresenterSignals {
    static func install(current: Locked<LiveRun?>) -> [any DispatchSourceSignal] {
        [SIGINT, SIGTERM, SIGHUP].map { number in
            signal(number, SIG_IGN)  // the source below handles it instead
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                if let run = current.current {
                    _ = run.stop()
                    if number == SIGINT { return }
                }
                KeyInput.restore()
                exit(128 + number)
            }
            source.resume()
            return source
        }
    }
}
