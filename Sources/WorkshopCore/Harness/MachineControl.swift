/// How late the main loop is on this machine with nothing to do, measured just before a
/// lesson runs: the machine's own share of any freeze a variant shows.
///
/// A laptop in a workshop room runs a video call and a browser too; its main loop may be
/// 0.1 s late with no work at all. A lesson that compared its freezes against zero would blame
/// the code for the machine; it compares against this control instead. The same second, the
/// CPU counters measure how much of the machine other programs used (`MachineLoad`), which
/// sees a load the main loop's lateness does not; the lesson measures that again while each
/// variant runs (`MachineVerdict`).
public struct MachineControl: Sendable {
    /// How long the control ran.
    public var seconds: Double
    /// The worst lateness of a frame tick beyond one frame, with nothing else to do.
    public var maxLateSeconds: Double
    /// What other programs used meanwhile (nil where the counters cannot be read).
    public var load: MachineLoad?

    public init(seconds: Double, maxLateSeconds: Double, load: MachineLoad? = nil) {
        self.seconds = seconds
        self.maxLateSeconds = maxLateSeconds
        self.load = load
    }

    /// Late by three frames or more with no work: freezes that size are the machine's.
    public static let busyLateSeconds = 0.05

    public var isBusy: Bool { maxLateSeconds >= Self.busyLateSeconds }

    /// Turns the main loop for `seconds` with a frame meter and nothing else. Call on main.
    @MainActor
    public static func measure(seconds: Double) -> MachineControl {
        let meter = StallMeter()
        let before = MachineLoad.sample()
        meter.start()
        MainLoop.run(timeout: seconds) { false }
        meter.stop()
        let load = before.flatMap { start in
            MachineLoad.sample().flatMap { MachineLoad(from: start, to: $0, cores: MachineLoad.cores) }
        }
        return MachineControl(
            seconds: seconds, maxLateSeconds: max(0, meter.maxStallSeconds - meter.frameSeconds), load: load)
    }

    /// "Machine: with nothing to do, the main loop was up to 0.004 s late (quiet)." The word in
    /// brackets is `probe`'s when a test set one.
    public func bannerLine(probe: MachineVerdict.Probe = .current) -> String {
        let state: String
        if probe == .quiet || (probe == .measured && !isBusy && load?.isBusy != true) {
            state = localized("quiet")
        } else if probe == .measured, !isBusy, let load {
            state = localized(
                format: "busy: other programs used %1$.1f of the %2$d cores", load.otherCores, load.cores)
        } else {
            state = localized("busy: freezes up to that size are the machine's, not the code's")
        }
        return localized(
            format: "Machine: with nothing to do, the main loop was up to %.3f s late (%@).", maxLateSeconds, state)
    }
}
