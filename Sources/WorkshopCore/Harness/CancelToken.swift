/// The threaded (GCD) variants' cancel: one flag that every queued block reads before its
/// side effect (a request, a write, a show), and handlers that stop what is already running.
///
/// GCD has no cancel of its own for a block already queued (`DispatchWorkItem.cancel()` only
/// stops one that has not started, and knows nothing of the request it will make), so a
/// 2010-style app passes one token to all its blocks:
///
///     imageQueue.async {
///         guard !token.isCancelled else { return }          // before the request
///         let icon = try? client.icon(for: entry)
///         DispatchQueue.main.async {
///             guard !token.isCancelled else { return }      // before the show: drop a late answer
///             controller.showIcon(icon, forRow: row)
///         }
///     }
///
/// `cancel()` is atomic: once it has returned, every block that checks sees it, and every
/// handler has run (or runs at once when added later).
public final class CancelToken: Sendable {
    private struct State {
        var cancelled = false
        var handlers: [@Sendable () -> Void] = []
    }
    // A lock: `cancel()` comes from main, the checks from every queue's threads.
    private let state = Locked(State())

    public init() {}

    public var isCancelled: Bool { state.current.cancelled }

    /// Marks the token cancelled, then runs every handler once (outside the lock, so a handler
    /// may check the token). Calling it again does nothing.
    public func cancel() {
        let handlers = state.withLock { state -> [@Sendable () -> Void] in
            guard !state.cancelled else { return [] }
            state.cancelled = true
            defer { state.handlers.removeAll() }
            return state.handlers
        }
        for handler in handlers { handler() }
    }

    /// Runs `sideEffect` unless the token is cancelled, and returns nil if it is. The check and
    /// the side effect hold the token's lock together, so a `cancel()` from another thread
    /// either comes first (the side effect never happens) or waits until it is done: once
    /// `cancel()` has returned, no such side effect is under way or will start. For a short,
    /// all-or-nothing step such as a COMMIT; never for a wait (the canceller waits too).
    public func unlessCancelled<T>(_ sideEffect: () throws -> T) rethrows -> T? {
        try state.withLock { state in
            guard !state.cancelled else { return nil }
            return try sideEffect()
        }
    }

    /// Runs `handler` when the token is cancelled (at once, on this thread, if it already is):
    /// cancel a request in flight, wake a wait.
    public func onCancel(_ handler: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state -> Bool in
            if state.cancelled { return true }
            state.handlers.append(handler)
            return false
        }
        if runNow { handler() }
    }
}
