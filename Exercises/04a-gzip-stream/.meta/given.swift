// What exercise 04a's checks hand your reader: a gzip body arriving chunk by chunk, that logs
// every pull and every record. Compiled with your file, the checks and the driver (and seen by
// your editor through ../compile_flags.txt).
import ExerciseChecks
import Foundation
import WorkshopCore

/// What happened while a reader read a `GzipChunkFeed`, in the order it happened: which chunk
/// was pulled, which record was handed over, when the reading task was cancelled.
public enum GzipFeedEvent: Sendable, Equatable {
    case pulled(Int)
    case record(String)
    case cancelled
}

/// The feed's own record of events. A lock, not an actor: the feed's `next()` and the record
/// callback log with no `await`, and the check reads the log after the reader has ended.
public final class GzipFeedLog: Sendable {
    private let events = Locked<[GzipFeedEvent]>([])

    public init() {}

    public func add(_ event: GzipFeedEvent) { events.withLock { $0.append(event) } }

    public var all: [GzipFeedEvent] { events.current }
}

/// A gzip body arriving chunk by chunk, the way URLSession hands a body over as it comes. No
/// network: the check decides every chunk and sees every pull, so what it reports (how many
/// chunks had arrived when the first record came out) is the same on a busy machine.
///
/// It does not look at cancellation itself: the chunks are already in memory, as bytes that
/// came off the wire before the user left are. Stopping is the reader's job.
public struct GzipChunkFeed: AsyncSequence, Sendable {
    public typealias Element = [UInt8]

    let chunks: [[UInt8]]
    let log: GzipFeedLog
    /// The pull (0-based) at which the reading task is cancelled, as if the user left right then.
    let cancelAtPull: Int?

    public init(_ chunks: [[UInt8]], log: GzipFeedLog, cancelAtPull: Int? = nil) {
        self.chunks = chunks
        self.log = log
        self.cancelAtPull = cancelAtPull
    }

    public func makeAsyncIterator() -> Iterator {
        Iterator(chunks: chunks, log: log, cancelAtPull: cancelAtPull)
    }

    public struct Iterator: AsyncIteratorProtocol {
        let chunks: [[UInt8]]
        let log: GzipFeedLog
        let cancelAtPull: Int?
        var index = 0

        public mutating func next() async throws -> [UInt8]? {
            guard index < chunks.count else { return nil }
            if index == cancelAtPull {
                // `next()` runs in the reader's task: this cancels the very task that reads.
                withUnsafeCurrentTask { $0?.cancel() }
                log.add(.cancelled)
            }
            log.add(.pulled(index))
            index += 1
            return chunks[index - 1]
        }
    }
}
