/// How late the main loop is on this machine with nothing to do, measured just before a
/// lesson runs: the machine's own share of any freeze a variant shows.
///
/// A laptop in a workshop room runs a video call and a browser too; its main loop may be
/// 0.1 s late with no work at all. A lesson that compared its freezes against zero would blame
/// the code for the machine; it compares against this control instead.
public struct MachineControl: Sendable {
    /// How long the control ran.
    public var seconds: Double
    /// The worst lateness of a frame tick beyond one frame, with nothing else to do.
    public var maxLateSeconds: Double

    /// Late by three frames or more with no work: freezes that size are the machine's.
    public static let busyLateSeconds = 0.05

    public var isBusy: Bool { maxLateSeconds >= Self.busyLateSeconds }

    /// Turns the main loop for `seconds` with a frame meter and nothing else. Call on main.
    @MainActor
    public static func measure(seconds: Double) -> MachineControl {
        let meter = StallMeter()
        meter.start()
        MainLoop.run(timeout: seconds) { false }
        meter.stop()
        return MachineControl(seconds: seconds, maxLateSeconds: max(0, meter.maxStallSeconds - meter.frameSeconds))
    }

    /// "Machine: with nothing to do, the main loop was up to 0.004 s late (quiet)."
    public var bannerLine: String {
        localized(
            format: "Machine: with nothing to do, the main loop was up to %.3f s late (%@).", maxLateSeconds,
            localized(isBusy ? "busy: freezes up to that size are the machine's, not the code's" : "quiet"))
    }

    /// The sentence a busy machine adds to the takeaway (nil on a quiet one).
    public var takeawaySentence: String? {
        guard isBusy else { return nil }
        return localized(
            format:
                "This machine was busy: its main loop was already up to %.3f s late with no work at all, so a freeze of that size is the machine's, not the code's.",
            maxLateSeconds)
    }
}
