import Foundation
import Testing

@testable import WorkshopCore

/// What other programs used of the machine while a lesson ran, and the verdict on the run: the
/// figures from made-up readings of the counters (evidence the test controls), the counters read
/// here only for their shape.
@Suite("Machine load and the busy verdict")
struct MachineLoadTests {
    /// Two readings `seconds` apart on a machine of `cores`, `busy` of it working (a share), of
    /// which this process used `own` cores.
    static func load(cores: Int, busy: Double, own: Double, seconds: Double = 2) -> MachineLoad? {
        let total = Double(cores) * 100 * seconds  // 100 ticks a second per core
        let start = MachineLoad.Sample(busyTicks: 5_000, totalTicks: 20_000, ownSeconds: 3, at: 10)
        let end = MachineLoad.Sample(
            busyTicks: 5_000 + busy * total, totalTicks: 20_000 + total, ownSeconds: 3 + own * seconds,
            at: 10 + seconds)
        return MachineLoad(from: start, to: end, cores: cores)
    }

    @Test("the cores other programs used: the machine's busy share less this process's own CPU time")
    func arithmetic() throws {
        // Both cores working, one of them ours: the others used one.
        let half = try #require(Self.load(cores: 2, busy: 1, own: 1))
        #expect(abs(half.otherCores - 1) < 1e-9)
        #expect(half.isBusy)  // half a core left beside ours
        // A lesson's own work on both cores is not a busy machine.
        let ours = try #require(Self.load(cores: 2, busy: 1, own: 2))
        #expect(ours.otherCores == 0 && !ours.isBusy)
        // A video call's core on an 8-core laptop leaves plenty.
        #expect(try #require(Self.load(cores: 8, busy: 0.25, own: 0.5)).isBusy == false)
        #expect(try #require(Self.load(cores: 8, busy: 0.9, own: 0.5)).isBusy)
        // Half a core of others on two cores is not busy yet; a little more is.
        #expect(try #require(Self.load(cores: 2, busy: 0.25, own: 0)).isBusy == false)
        #expect(try #require(Self.load(cores: 2, busy: 0.3, own: 0)).isBusy)
        // A stretch too short to say anything is never busy; no time or no ticks is no load.
        #expect(try #require(Self.load(cores: 2, busy: 1, own: 0, seconds: 0.1)).isBusy == false)
        let sample = MachineLoad.Sample(busyTicks: 1, totalTicks: 2, ownSeconds: 0, at: 5)
        #expect(MachineLoad(from: sample, to: sample, cores: 2) == nil)
        #expect(MachineLoad.busyOtherCores(cores: 1) == 0.5)
        #expect(MachineLoad.busyOtherCores(cores: 4) == 2.5)
    }

    @Test("/proc/stat's first line: working is user, nice, system, irq, softirq and steal")
    func procStat() throws {
        let ticks = try #require(MachineLoad.procStatTicks("cpu  100 2 30 500 7 1 2 4 9 0"))
        #expect(ticks.busy == 139 && ticks.total == 646)
        #expect(MachineLoad.procStatTicks("cpu0 100 2 30 500") == nil)
        #expect(MachineLoad.procStatTicks("intr 1 2 3") == nil)
        #if os(Linux)
            // Read for real: this machine's counters move, and count its cores.
            let first = try #require(MachineLoad.sample())
            #expect(first.totalTicks > 0 && first.busyTicks <= first.totalTicks)
            #expect(MachineLoad.cores >= 1)
        #endif
    }

    static func control(late: Double = 0.002, load: MachineLoad? = nil) -> MachineControl {
        MachineControl(seconds: 1, maxLateSeconds: late, load: load)
    }

    @Test("a run busy in any stretch draws no comparison: it says why and what to run again")
    func verdict() throws {
        let quiet = try #require(Self.load(cores: 2, busy: 0.1, own: 0))
        let busy = try #require(Self.load(cores: 2, busy: 0.95, own: 0))
        let windows = [
            MachineVerdict.Window(variant: nil, load: quiet),
            MachineVerdict.Window(variant: "threaded", load: quiet),
            MachineVerdict.Window(variant: "async", load: busy),
        ]
        // Quiet before the run (the newcomer's "0.001 s (quiet)"), busy while async ran.
        let verdict = MachineVerdict(control: Self.control(load: quiet), windows: windows, probe: .measured)
        #expect(verdict.isBusy)
        let takeaway = try #require(verdict.takeaway(rerun: "swift run lesson03 --rows 4"))
        #expect(
            takeaway
                == "This run was busy, so its figures are not compared. While async ran, other programs used 1.9 of "
                + "the 2 cores on average: its figures are the machine's as much as the code's. Run `swift run "
                + "lesson03 --rows 4` again when the machine is quiet (other programs closed, no build running).")
        #expect(Self.control(load: quiet).bannerLine(probe: .measured).hasSuffix("late (quiet)."))

        // Quiet throughout: no verdict of its own, the lesson's takeaway stands.
        let calm = MachineVerdict(
            control: Self.control(load: quiet), windows: Array(windows.prefix(2)), probe: .measured)
        #expect(!calm.isBusy && calm.takeaway(rerun: "x") == nil)
        // The main loop late before the run, and the counters unreadable: still busy.
        let late = MachineVerdict(control: Self.control(late: 0.3), windows: [], probe: .measured)
        #expect(late.reasons.count == 1)
        #expect(
            late.reasons.first?.hasPrefix("This machine was busy: its main loop was already up to 0.300 s late") == true
        )
        // Busy while the control measured: the banner says so already.
        #expect(
            Self.control(load: busy).bannerLine(probe: .measured).hasSuffix(
                "(busy: other programs used 1.9 of the 2 cores)."))
        // A test's word overrides the measurements, either way.
        #expect(!MachineVerdict(control: Self.control(late: 0.3), windows: windows, probe: .quiet).isBusy)
        #expect(Self.control(late: 0.3).bannerLine(probe: .quiet).hasSuffix("(quiet)."))
        let forced = MachineVerdict(control: Self.control(), windows: [], probe: .busy)
        #expect(forced.reasons == ["SAKUSAKU_MACHINE=busy said so."])
        // Busy only before the first variant: the counters' stretch of the control second.
        let before = MachineVerdict(
            control: Self.control(load: busy), windows: [MachineVerdict.Window(variant: nil, load: busy)],
            probe: .measured)
        #expect(before.reasons == ["Before it started, other programs used 1.9 of the 2 cores on average."])
    }

    @Test("the command to run again is the one that ran, quoted for a shell")
    func rerun() {
        #expect(
            MachineVerdict.rerunCommand(product: "lesson03", arguments: ["--rows", "4", "--scroll", "down 4, up 4"])
                == "swift run lesson03 --rows 4 --scroll 'down 4, up 4'")
        #expect(MachineVerdict.shellQuoted("it's") == "'it'\\''s'")
        #expect(MachineVerdict.shellQuoted("--server=http://127.0.0.1:8080") == "--server=http://127.0.0.1:8080")
    }
}
