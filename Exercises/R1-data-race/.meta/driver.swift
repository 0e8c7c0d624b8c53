import Foundation

#if !WORKLOAD_ONLY
    import ExerciseChecks
#endif

// 8 "image queues" fetch 10 things each and record every request in one counter,
// while the "Screen" reads the total now and then. `await` works for a class and an actor
// alike. Prints one line: total=... /path=...
func workload() async -> String {
    let counter = RequestCounter()
    let paths = ["/timeline", "/icon/a", "/icon/b", "/icon/c"]
    await withTaskGroup(of: Void.self) { group in
        for worker in 0..<8 {
            group.addTask {
                for request in 0..<10 {
                    // The "network": 0.3-2 ms per request, different for each.
                    usleep(UInt32(300 + (worker * 7_919 + request * 104_729) % 1_700))
                    await counter.record(paths[(worker + request) % paths.count])
                }
            }
        }
        // Meanwhile the Screen shows the running total: reads race with writes too.
        group.addTask {
            for frame in 0..<10 {
                usleep(UInt32(500 + frame * 97))
                _ = await counter.total
            }
        }
    }
    var line = "total=\(await counter.total)"
    for path in paths { line += " \(path)=\(await counter.count(of: path))" }
    return line
}

#if WORKLOAD_ONLY
    // Unbuffered: a run that the sanitizer ends with exit code 66 still shows its counts.
    FileHandle.standardOutput.write(Data((await workload() + "\n").utf8))
#else
    if CommandLine.arguments.contains("--workload") {
        FileHandle.standardOutput.write(Data((await workload() + "\n").utf8))
    } else {
        await ExerciseDriver.run(ExerciseR1Checks.all) { ExerciseR1Checks.run() }
    }
#endif
