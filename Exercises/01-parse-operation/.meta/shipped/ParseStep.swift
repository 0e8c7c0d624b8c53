// Exercise 01: make a parse step wait for its fetch, and pass a failed or cancelled fetch on without parsing.
// Check it: swift run workshop check 01
import Foundation
import WorkshopCore

/// What a parse step needs from the fetch it depends on. (Given: do not change.)
public protocol BodyProducing: Operation {
    /// The fetched bytes, or why there are none. Nil until the fetch has run (and it stays
    /// nil if the fetch was cancelled before it started).
    var body: Result<Data, any Error>? { get }
}

/// Why a parse step has no value. (Given: do not change.)
public enum ParseStepFailure: Error, Equatable {
    /// The fetch failed; its error, in words.
    case sourceFailed(String)
    /// The fetch was cancelled.
    case sourceCancelled
}

/// Turns the body fetched by `source` into a value. It is queued together with its source on
/// one `OperationQueue`, of any width.
// @unchecked: `stored` is a Locked; the rest are constants
public final class ParseStep<Output: Sendable>: Operation, @unchecked Sendable {
    private let source: any BodyProducing
    private let parse: @Sendable (Data) throws -> Output
    private let stored = Locked<Result<Output, any Error>?>(nil)  // written in main(), read from any thread

    public init(source: any BodyProducing, parse: @escaping @Sendable (Data) throws -> Output) {
        self.source = source
        self.parse = parse
        super.init()
        // TODO(1): this step must not start before `source` has finished.
    }

    /// The parsed value or why there is none; nil until the step has run.
    public var output: Result<Output, any Error>? { stored.current }

    public override func main() {
        // TODO(2): a cancelled source must end as `.sourceCancelled`, a failed one as
        // `.sourceFailed(...)`, and neither may reach `parse`.
        let data = (try? source.body?.get()) ?? Data()
        let outcome = Result { try parse(data) }
        stored.withLock { $0 = outcome }
    }
}
