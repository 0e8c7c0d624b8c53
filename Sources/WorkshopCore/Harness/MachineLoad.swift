import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How much of the machine other programs used while a lesson ran: the machine's CPU time
/// (all cores, as the OS counts it) less this process's own, over a stretch of time.
///
/// Why this and not the main loop's lateness alone (`MachineControl`): with both cores of this
/// machine kept busy by other programs (load average 16 on 2 cores), an idle main loop was
/// still only 0.001-0.011 s late, "quiet", in six runs out of six: the scheduler wakes a thread
/// that slept promptly, so lateness sees only the heaviest load. The same load left the lesson's
/// working threads a fraction of a core, which is what bends its totals and freezes. The CPU
/// counters see that load, and subtracting this process's own CPU time keeps a lesson's own work
/// (lesson 07 measuring on both cores) from counting as "busy". They are the OS's own books,
/// read the same way on a laptop: /proc/stat on Linux, `host_statistics` on macOS, and this
/// process's CPU clock on both; only the share of busy time is used, never the ticks' length.
public struct MachineLoad: Sendable, Equatable {
    /// One reading of the counters.
    public struct Sample: Sendable, Equatable {
        /// The machine's CPU time spent working, and in all (working and idle), in the OS's
        /// ticks, all cores together.
        public var busyTicks: Double
        public var totalTicks: Double
        /// CPU time this process has used, all its threads, in seconds.
        public var ownSeconds: Double
        /// When, on the monotonic clock (seconds).
        public var at: Double

        public init(busyTicks: Double, totalTicks: Double, ownSeconds: Double, at: Double) {
            self.busyTicks = busyTicks
            self.totalTicks = totalTicks
            self.ownSeconds = ownSeconds
            self.at = at
        }
    }

    /// The cores the counters count.
    public var cores: Int
    /// The cores other programs kept busy, on average over `seconds`.
    public var otherCores: Double
    public var seconds: Double

    public init(cores: Int, otherCores: Double, seconds: Double) {
        self.cores = cores
        self.otherCores = otherCores
        self.seconds = seconds
    }

    /// The load between two readings: the machine's share of busy time times its cores is the
    /// cores working on average; this process's CPU time over the same wall time is its share.
    public init?(from start: Sample, to end: Sample, cores: Int) {
        let seconds = end.at - start.at
        let total = end.totalTicks - start.totalTicks
        guard cores > 0, seconds > 0, total > 0 else { return nil }
        let working = (end.busyTicks - start.busyTicks) / total * Double(cores)
        let own = (end.ownSeconds - start.ownSeconds) / seconds
        self.init(cores: cores, otherCores: min(Double(cores), max(0, working - own)), seconds: seconds)
    }

    /// A stretch shorter than this says too little: the counters move in ticks of 10 ms.
    public static let shortestSeconds = 0.2

    /// Other programs left less than one and a half cores (but never less than half a core on a
    /// machine of one or two): not enough for a lesson's main thread and a worker beside it.
    public static func busyOtherCores(cores: Int) -> Double { max(0.5, Double(cores) - 1.5) }

    public var isBusy: Bool { seconds >= Self.shortestSeconds && otherCores > Self.busyOtherCores(cores: cores) }

    /// The counters now; nil where the OS does not tell (or the reading failed).
    public static func sample() -> Sample? {
        guard let (busy, total) = machineTicks() else { return nil }
        var clock = timespec()
        guard clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &clock) == 0 else { return nil }
        let own = Double(clock.tv_sec) + Double(clock.tv_nsec) / 1e9
        return Sample(busyTicks: busy, totalTicks: total, ownSeconds: own, at: monotonicSeconds())
    }

    /// The cores the counters count: the "cpuN" lines of /proc/stat on Linux (all of the
    /// machine's, as its first line sums them), the processors on macOS.
    public static let cores: Int = {
        #if canImport(Glibc)
            let lines = (try? String(contentsOfFile: "/proc/stat", encoding: .utf8))?.split(separator: "\n") ?? []
            let counted = lines.filter { $0.hasPrefix("cpu") && !$0.hasPrefix("cpu ") }.count
            return counted > 0 ? counted : ProcessInfo.processInfo.activeProcessorCount
        #else
            return ProcessInfo.processInfo.activeProcessorCount
        #endif
    }()

    /// The machine's busy and total ticks, all cores together.
    static func machineTicks() -> (busy: Double, total: Double)? {
        #if canImport(Glibc)
            guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
                let first = text.split(separator: "\n").first
            else { return nil }
            return procStatTicks(String(first))
        #elseif canImport(Darwin)
            var info = host_cpu_load_info()
            var count = mach_msg_type_number_t(
                MemoryLayout<host_cpu_load_info>.stride / MemoryLayout<integer_t>.stride)
            let result = withUnsafeMutablePointer(to: &info) {
                $0.withMemoryRebound(to: integer_t.self, capacity: Int(count)) {
                    host_statistics(mach_host_self(), HOST_CPU_LOAD_INFO, $0, &count)
                }
            }
            guard result == KERN_SUCCESS else { return nil }
            // CPU_STATE_USER, CPU_STATE_SYSTEM, CPU_STATE_IDLE, CPU_STATE_NICE
            let (user, system, idle, nice) = info.cpu_ticks
            let busy = Double(user) + Double(system) + Double(nice)
            return (busy, busy + Double(idle))
        #else
            return nil
        #endif
    }

    /// /proc/stat's first line, "cpu  user nice system idle iowait irq softirq steal guest
    /// guest_nice" (proc(5)): working is user, nice, system, irq, softirq and steal (time a
    /// virtual machine's host gave to others: taken from us as surely); idle and iowait are not.
    /// Guest time is already in user and nice.
    static func procStatTicks(_ line: String) -> (busy: Double, total: Double)? {
        let fields = line.split(separator: " ").dropFirst().compactMap { Double($0) }
        guard line.hasPrefix("cpu "), fields.count >= 4 else { return nil }
        func field(_ index: Int) -> Double { index < fields.count ? fields[index] : 0 }
        let busy = field(0) + field(1) + field(2) + field(5) + field(6) + field(7)
        return (busy, busy + field(3) + field(4))
    }
}

/// Whether a lesson's run was on a quiet machine, from what was measured before it and while
/// each of its variants ran.
public struct MachineVerdict: Sendable {
    /// A stretch of the run the counters measured: before the first variant (`variant` nil) or
    /// while one ran.
    public struct Window: Sendable, Equatable {
        public var variant: String?
        public var load: MachineLoad

        public init(variant: String?, load: MachineLoad) {
            self.variant = variant
            self.load = load
        }
    }

    public var control: MachineControl?
    public var windows: [Window]
    public var probe: Probe

    /// What the measurements say, or what a test made them say: `SAKUSAKU_MACHINE=quiet` for
    /// tests and tools that check what a program prints, not the machine it ran on (a suite
    /// runs three lessons side by side on two cores: every run would be busy); `busy` to see
    /// what a busy run prints on a quiet machine.
    public enum Probe: String, Sendable {
        case measured
        case quiet
        case busy

        public static let variable = "SAKUSAKU_MACHINE"

        public static let current: Probe =
            ProcessInfo.processInfo.environment[variable].flatMap { Probe(rawValue: $0) } ?? .measured
    }

    public init(control: MachineControl?, windows: [Window], probe: Probe = .current) {
        self.control = control
        self.windows = windows
        self.probe = probe
    }

    /// The window whose load decides, the busiest of the busy ones.
    public var busiestWindow: Window? {
        windows.filter(\.load.isBusy).max { $0.load.otherCores < $1.load.otherCores }
    }

    /// The main loop was late with nothing to do before the run.
    var lateBefore: Bool { control?.isBusy == true }

    public var isBusy: Bool {
        switch probe {
        case .quiet: false
        case .busy: true
        case .measured: lateBefore || busiestWindow != nil
        }
    }

    /// Why the run was busy, a sentence each ("While async ran, other programs used 1.9 of the
    /// 2 cores on average, ..."); empty when it was not.
    public var reasons: [String] {
        guard isBusy else { return [] }
        var reasons: [String] = []
        if probe != .busy, let control, control.isBusy {
            reasons.append(
                localized(
                    format:
                        "This machine was busy: its main loop was already up to %.3f s late with no work at all, so a freeze of that size is the machine's, not the code's.",
                    control.maxLateSeconds))
        }
        if probe == .busy {
            reasons.append(localized(format: "%@ said so.", Probe.variable + "=busy"))
        } else if let window = busiestWindow {
            reasons.append(Self.describe(window))
        }
        return reasons
    }

    static func describe(_ window: Window) -> String {
        guard let variant = window.variant else {
            return localized(
                format: "Before it started, other programs used %1$.1f of the %2$d cores on average.",
                window.load.otherCores, window.load.cores)
        }
        return localized(
            format:
                "While %1$@ ran, other programs used %2$.1f of the %3$d cores on average: its figures are the machine's as much as the code's.",
            variant, window.load.otherCores, window.load.cores)
    }

    /// What the takeaway says in place of its comparisons when the run was busy: that it
    /// compares nothing, why, and the command to run again (`command`: the lesson's own line,
    /// as typed). Nil on a quiet run.
    public func takeaway(rerun command: String) -> String? {
        guard isBusy else { return nil }
        return sentences(
            [localized("This run was busy, so its figures are not compared.")] + reasons + [
                localized(
                    format: "Run `%@` again when the machine is quiet (other programs closed, no build running).",
                    command)
            ])
    }
}

extension MachineVerdict {
    /// The line that runs this program again as it was run: `swift run lessonNN` and its
    /// arguments, quoted for a shell where they need it.
    public static func rerunCommand(product: String, arguments: [String] = Array(CommandLine.arguments.dropFirst()))
        -> String
    {
        (["swift run " + product] + arguments.map(shellQuoted)).joined(separator: " ")
    }

    static func shellQuoted(_ argument: String) -> String {
        let plain =
            !argument.isEmpty
            && argument.unicodeScalars.allSatisfy { scalar in
                scalar.isASCII
                    && (CharacterSet.alphanumerics.contains(scalar) || "-_./:=,+@%".unicodeScalars.contains(scalar))
            }
        return plain ? argument : "'" + argument.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
