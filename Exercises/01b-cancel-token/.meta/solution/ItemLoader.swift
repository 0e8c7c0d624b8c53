// Exercise 01b: give the queued blocks a cancel token, so that a cancel sends nothing more and shows nothing.
// Check it: swift run workshop check 01b
import Dispatch
import ExerciseChecks
import WorkshopCore

/// Loads a screen's items the 2010 way: one block per item on a serial queue, each waiting for
/// its answer (`item(_:)` blocks its thread), each handing its row to the main queue. `start`
/// and `cancel` are called on the main thread; the user may leave the screen at any moment.
public final class ItemLoader: Sendable {
    let client: ItemClient
    let screen: ItemScreen
    /// One fetch at a time, in order, off the main thread.
    let queue: DispatchQueue
    /// Counts every block `start` queues, on the queue and on main: its notify runs once the
    /// last one has ended, cancelled or not.
    public let work = DispatchGroup()
    /// One flag for every block: `cancel()` sets it on main, the blocks read it on the queue and
    /// on main. A `CancelToken` holds a lock, so that is safe, and once `cancel()` has returned
    /// every block that checks sees it.
    let token = CancelToken()

    public init(client: ItemClient, screen: ItemScreen, queue: DispatchQueue) {
        self.client = client
        self.screen = screen
        self.queue = queue
    }

    @MainActor
    public func cancel() {
        // Every block checks it from now on, and the request in flight is cancelled now.
        token.cancel()
    }

    @MainActor
    public func start(ids: [Int]) {
        for id in ids {
            // Counted in `work` from now until the block has ended (a block queued with a group
            // enters it here and leaves it when it returns, whichever `return` it takes).
            queue.async(group: work) { [client, screen, token, work] in
                // Queued before the cancel, run after it: send nothing.
                guard !token.isCancelled else { return }
                // The token also stops the request in flight: the call then throws `.cancelled`.
                guard let item = try? client.item(id, cancelToken: token) else { return }
                // Entered before this block leaves, so the group never reads zero in between.
                DispatchQueue.main.async(group: work) {
                    // The answer came just before the user's tap and waited for main behind it.
                    guard !token.isCancelled else { return }
                    screen.show(item, row: id)
                }
            }
        }
    }
}
