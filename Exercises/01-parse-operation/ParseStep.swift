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

/// Exercise 01: the parse step as its own operation.
///
/// A `ParseStep` turns the body fetched by `source` into a value. It is queued together with
/// its source on the same `OperationQueue`, with any width. As shipped it is wrong twice:
///   1. it may run before `source` has finished, and then parses nothing;
///   2. when the fetch failed or was cancelled, it still calls `parse` (on empty data).
/// Fix both:
///   - make the step run only after `source` has finished, whatever the outcome (TODO 1);
///   - in `main()`, pass a cancelled source on as `.sourceCancelled` and a failed one as
///     `.sourceFailed(...)`, without calling `parse`; parse only real data (TODO 2).
///
/// Check your work:  swift test --filter Exercise01
public final class ParseStep<Output: Sendable>: Operation, @unchecked Sendable {  // @unchecked: `stored` is a Locked; the rest are constants
    private let source: any BodyProducing
    private let parse: @Sendable (Data) throws -> Output
    private let stored = Locked<Result<Output, any Error>?>(nil)  // written in main(), read from any thread

    public init(source: any BodyProducing, parse: @escaping @Sendable (Data) throws -> Output) {
        self.source = source
        self.parse = parse
        super.init()
        // TODO 1: this step must not start before `source` has finished.
    }

    /// The parsed value or why there is none; nil until the step has run.
    public var output: Result<Output, any Error>? { stored.current }

    public override func main() {
        // TODO 2: a cancelled or failed source must not reach `parse`.
        let data = (try? source.body?.get()) ?? Data()
        let outcome = Result { try parse(data) }
        stored.withLock { $0 = outcome }
    }
}
