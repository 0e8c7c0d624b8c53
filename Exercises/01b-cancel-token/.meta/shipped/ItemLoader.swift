// Exercise 01b: give the queued blocks a cancel token, so that a cancel sends nothing more and shows nothing.
// Check it: swift run workshop check 01b
import Dispatch
import ExerciseChecks
import WorkshopCore

/// Loads a screen's items the 2010 way: one block per item on a serial queue, each waiting for
/// its answer (`item(_:)` blocks its thread), each handing its row to the main queue. `start`
/// and `cancel` are called on the main thread; the user may leave the screen at any moment.
/// As shipped it shows every row when nothing is cancelled, but `cancel()` stops nothing: the
/// blocks already queued still send their requests, and their rows still appear.
public final class ItemLoader: Sendable {
    let client: ItemClient
    let screen: ItemScreen
    /// One fetch at a time, in order, off the main thread.
    let queue: DispatchQueue
    /// The caller asks it (`work.notify`) when the last block has ended, e.g. before it frees
    /// what the blocks use.
    public let work = DispatchGroup()

    public init(client: ItemClient, screen: ItemScreen, queue: DispatchQueue) {
        self.client = client
        self.screen = screen
        self.queue = queue
    }

    @MainActor
    public func cancel() {
        // TODO(1): GCD has no cancel for queued blocks: give them all one `CancelToken`, and cancel it here.
    }

    @MainActor
    public func start(ids: [Int]) {
        for id in ids {
            queue.async { [client, screen] in
                // TODO(2): queued before the cancel, this block still sends its request after it, and
                // the request in flight runs to its end: check the token first, and hand it to the request.
                guard let item = try? client.item(id) else { return }
                DispatchQueue.main.async {
                    // TODO(3): an answer that was on its way to main at the cancel is still shown.
                    screen.show(item, row: id)
                }
            }
            // TODO(4): no block is counted in `work`: its notify runs at once, while the blocks still run.
        }
    }
}
