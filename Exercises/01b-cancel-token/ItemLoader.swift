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
    public func start(ids: [Int]) {
        for id in ids {
            // TODO(3): no block is counted in `work`, so its notify runs at once, while they all still run.
            queue.async { [client, screen] in
                // TODO(1): a block already queued cannot be taken back: it sends its request even after a cancel.
                // TODO(2): and once sent, the request runs to its end: nothing can stop it.
                guard let item = try? client.item(id) else { return }
                DispatchQueue.main.async {
                    // TODO(2): an answer on its way to main when the user cancelled is still shown.
                    screen.show(item, row: id)
                }
            }
        }
    }

    @MainActor
    public func cancel() {
        // TODO(1): GCD has no cancel for these blocks: give them one `CancelToken` to check, and cancel it here.
    }
}
