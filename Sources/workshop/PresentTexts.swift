import Foundation

/// What `workshop present` says (its Japanese in the table). The steps' titles and points come
/// from the lesson texts (Lessons/ja for Japanese).
extension Text {
    static func presentStep(_ step: Int, of count: Int) -> String {
        localized(format: "step %1$d of %2$d", step, count)
    }
    static var presentKeysBeforeRun: String { localized("Enter, Space or →: run it   b or ←: back   q: quit") }
    static var presentKeysAfterRun: String {
        localized("Enter, Space or →: next step   r: run again   b or ←: back   q: quit")
    }
    static var presentKeysSkipped: String { localized("Enter, Space or →: next step   b or ←: back   q: quit") }
    static var presentKeysAtEnd: String { localized("Enter, Space, → or q: end   b or ←: back") }
    static var presentKeysDuringRun: String {
        localized("Running: q or Ctrl-C stops it (the presenter stays on this step).")
    }
    static var presentNeedsServer: String {
        localized(
            "Skipped here: this demo needs a room server (`swift run fixture-server` in a second terminal). To show it, run both commands by hand."
        )
    }
    static var presentTakeaway: String { localized("Takeaway") }
    static var presentStopped: String { localized("Stopped the run. Still on this step: r runs it again.") }
    static func presentEnded(_ how: String) -> String {
        localized(format: "The lesson program ended with %@.", how)
    }
    static var presentFirstStep: String { localized("This is the first step.") }
    static func presentTheEnd(_ lesson: String) -> String {
        localized(format: "That was the last demo of lesson %@.", lesson)
    }
    static func presentExtra(_ extra: String) -> String { localized(format: "(every run adds: %@)", extra) }
    static func presentBuilding(_ command: String) -> String {
        localized(format: "Building the lesson first: %@", command)
    }
    static func presentNotBuiltYet(_ product: String) -> String { localized(format: "%@ is not built yet.", product) }
    static func presentSourcesChanged(_ file: String, _ product: String) -> String {
        localized(format: "%1$@ changed after %2$@ was built.", file, product)
    }
    static func presentBuildTimedOut(_ minutes: Int) -> String {
        localized(format: "not done within %d minutes", minutes)
    }
    static func presentNoLesson(_ asked: String, _ numbers: String) -> String {
        localized(format: "there is no lesson \"%@\". The lessons are %@.", asked, numbers)
    }
    static func presentNoDemos(_ file: String, _ product: String) -> String {
        localized(format: "%@ quotes no `swift run %@` line in a code block: no demo to present", file, product)
    }
    static func presentBadStep(_ step: Int, _ count: Int) -> String {
        localized(format: "--step must be between 1 and %d (got %d)", count, step)
    }
    static func presentNotBuilt(_ product: String, _ end: String) -> String {
        localized(format: "%1$@ could not be built (%2$@): run `swift build` to see why, then try again", product, end)
    }
}
