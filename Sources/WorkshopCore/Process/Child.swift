import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Subprocess {
    /// A program started and left running: what it prints is collected as it comes, a thread
    /// can wait for a line of it or for the end, and it can be sent a signal. `run` is one of
    /// these waited for; a test keeps one to talk to a server it started.
    ///
    /// Started with `posix_spawn`, not Foundation's `Process`: on Linux, `Process.run()` in
    /// swift-corelibs-foundation up to Swift 6.3.1 copies the whole 256-byte name of each entry
    /// of /proc/self/fd, which reads past glibc's readdir buffer and crashes (SIGSEGV in
    /// `memcpy`) when a process holds about 1,360 descriptors or more, the listing then filling
    /// the buffer to its end (swift-corelibs-foundation pull request 5472, merged 2026-05-19, in
    /// no release yet). A test process that holds many sockets got there.
    public final class Child: Sendable {
        /// The child's process id (and its process group's: it leads a group of its own).
        public let pid: pid_t
        private let state = Watched(State())
        /// The write end of the child's standard input, when it has a pipe there (-1 once closed).
        private let input: Locked<Int32>

        /// What it printed, how many of its two pipes are still open, and how it ended.
        struct State: Sendable {
            var stdout = Data()
            var stderr = Data()
            var openPipes = 2
            var end: End?

            var output: Output { Output(stdout: stdout, stderr: stderr, ended: end != nil && openPipes == 0) }
        }

        /// How the child ended: its exit status, or the signal that stopped it.
        public struct End: Sendable, Equatable {
            public var status: Int32
            public var signaled: Bool

            public init(status: Int32, signaled: Bool) {
                self.status = status
                self.signaled = signaled
            }
        }

        /// What the child printed so far, and whether that is all of it.
        public struct Output: Sendable {
            public var stdout: Data
            public var stderr: Data
            /// The child has ended and both pipes have been read to their end.
            public var ended: Bool

            public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
            public var stderrText: String { String(decoding: stderr, as: UTF8.self) }
        }

        /// Starts `program` (looked up on the child's PATH unless it contains a "/") with
        /// `arguments`, standard output and error into pipes read as they fill, standard input
        /// /dev/null (or with `input`, a pipe that `write` feeds); `environment` nil is this
        /// process's own.
        public init(
            _ program: String, _ arguments: [String], environment: [String: String]? = nil,
            currentDirectory: String? = nil, memoryLimit: MemoryLimit = .inherit, input: Bool = false
        ) throws {
            var command = [program] + arguments
            switch memoryLimit {
            case .inherit: break
            case .bytes(let bytes):
                // `ulimit` is the shell's door to setrlimit; `exec` keeps the process (and its pid) the program's.
                command = ["/bin/sh", "-c", "ulimit -S -d \(max(1, bytes / 1024)) && exec \"$0\" \"$@\""] + command
            case .unlimited:
                command = ["/bin/sh", "-c", "ulimit -S -d unlimited; exec \"$0\" \"$@\""] + command
            }
            if !command[0].contains("/") { command = ["/usr/bin/env"] + command }
            var pipes: [Pipe] = []
            do {
                for _ in 0..<(input ? 3 : 2) { pipes.append(try Pipe.open()) }
                pid = try Spawn.start(
                    command, environment: environment ?? ProcessInfo.processInfo.environment,
                    currentDirectory: currentDirectory, stdin: input ? pipes[2].read : nil, stdout: pipes[0].write,
                    stderr: pipes[1].write)
            } catch {
                for pipe in pipes { pipe.closeBoth() }
                throw error
            }
            let (out, err) = (pipes[0], pipes[1])
            close(out.write)
            close(err.write)
            if input { close(pipes[2].read) }
            self.input = Locked(input ? pipes[2].write : -1)
            for (fd, isOut) in [(out.read, true), (err.read, false)] {
                Thread.detachNewThread { [state] in Self.drain(fd, isOut: isOut, into: state) }
            }
            Thread.detachNewThread { [pid, state] in
                let end = Self.reap(pid)
                state.withLock { $0.end = end }
            }
        }

        /// What it printed so far (all of it once `wait` has returned an end).
        public var output: Output { state.withLock { $0.output } }

        /// How it ended; nil while it runs (or has not been reaped yet).
        public var end: End? { state.withLock { $0.end } }

        /// Waits until what it printed so far satisfies `predicate`, or `timeout` seconds pass,
        /// or it has ended without. Returns whether `predicate` holds. (Each time the output
        /// grows, `predicate` reads it under the lock the pipes' readers take: keep it short.)
        @discardableResult
        public func waitForOutput(timeout: Double, until predicate: (Output) -> Bool) -> Bool {
            var holds = false
            state.wait(timeout: timeout) { state in
                let output = state.output
                holds = predicate(output)
                return holds || output.ended
            }
            return holds
        }

        /// `waitForOutput`, awaited: waited for on a thread of its own, so that the task holds
        /// none of the few threads Swift's concurrency runs tasks on meanwhile.
        public func waitForOutput(timeout: Double, until predicate: @escaping @Sendable (Output) -> Bool) async -> Bool
        {
            await withCheckedContinuation { done in
                Thread.detachNewThread {
                    done.resume(returning: self.waitForOutput(timeout: timeout, until: predicate))
                }
            }
        }

        /// `wait`, awaited: waited for on a thread of its own (see `waitForOutput`).
        public func wait(timeout: Double) async -> End? {
            await withCheckedContinuation { done in
                Thread.detachNewThread { done.resume(returning: self.wait(timeout: timeout)) }
            }
        }

        /// Writes `data` to the child's standard input (started with `input`), all of it.
        public func write(_ data: Data) throws {
            try input.withLock { fd in
                guard fd >= 0 else { throw SpawnError(program: "the child's input", code: EBADF) }
                try data.withUnsafeBytes { bytes in
                    guard let start = bytes.baseAddress else { return }  // nothing to write
                    var offset = 0
                    while offset < bytes.count {
                        let count = systemWrite(fd, start + offset, bytes.count - offset)
                        if count < 0 && errno == EINTR { continue }
                        guard count > 0 else { throw SpawnError(program: "the child's input", code: errno) }
                        offset += count
                    }
                }
            }
        }

        /// Closes the child's standard input: it reads its end.
        public func closeInput() {
            input.withLock { fd in
                if fd >= 0 { close(fd) }
                fd = -1
            }
        }

        /// Waits at most `timeout` seconds for the child to end. Its output is complete too
        /// when this returns an end: both pipes have been read to their end, not only the exit
        /// seen (the last chunk can still be on its way when the child has exited). Nil while
        /// it runs; a grandchild that keeps a pipe open is given at most 5 s more.
        public func wait(timeout: Double) -> End? {
            guard state.wait(timeout: timeout, until: { $0.end != nil }) else { return nil }
            state.wait(timeout: 5) { $0.openPipes == 0 }
            return end
        }

        /// Sends `signal` to the child, unless it has ended (and its pid may belong to another).
        public func signal(_ signal: Int32) {
            guard end == nil else { return }
            kill(pid, signal)
        }

        /// Sends `signal` to the child's process group, so that what it started gets it too,
        /// also once the child has ended (the group's id is not given to another process while
        /// the group has members).
        public func signalGroup(_ signal: Int32) {
            Subprocess.stopGroup(pid, signal, leader: end == nil)
        }

        /// Reads `fd` to its end into the state; a read a signal interrupted is tried again
        /// (Foundation's `availableData` traps on it instead).
        private static func drain(_ fd: Int32, isOut: Bool, into state: Watched<State>) {
            let size = 64 * 1024
            let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 1)
            defer {
                buffer.deallocate()
                close(fd)
                state.withLock { $0.openPipes -= 1 }
            }
            while true {
                let count = read(fd, buffer, size)
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { return }
                let chunk = Data(bytes: buffer, count: count)
                state.withLock { if isOut { $0.stdout += chunk } else { $0.stderr += chunk } }
            }
        }

        /// Waits for the child to end and reaps it.
        private static func reap(_ pid: pid_t) -> End {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 {
                // Reaped by someone else (SIGCHLD ignored): how it ended is not known.
                if errno != EINTR { return End(status: SIGKILL, signaled: true) }
            }
            let signal = status & 0x7f
            return signal == 0
                ? End(status: (status >> 8) & 0xff, signaled: false) : End(status: signal, signaled: true)
        }
    }

    /// The two ends of a pipe, close-on-exec from the start: a program another thread starts
    /// meanwhile (with Foundation's `Process`, which closes only the descriptors it listed
    /// before its start) never gets an end, which would keep the pipe from ending after the child.
    struct Pipe {
        var read: Int32
        var write: Int32

        static func open() throws -> Pipe {
            var fds: [Int32] = [-1, -1]
            #if canImport(Darwin)
                guard pipe(&fds) == 0 else { throw SpawnError(program: "pipe", code: errno) }
                for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            #else
                guard let pipe2 = GlibcExtras.pipe2, pipe2(&fds, O_CLOEXEC) == 0 else {
                    throw SpawnError(program: "pipe2", code: errno)
                }
            #endif
            return Pipe(read: fds[0], write: fds[1])
        }

        func closeBoth() {
            close(read)
            close(write)
        }
    }

    /// A program that could not be started.
    public struct SpawnError: Error, CustomStringConvertible {
        public var program: String
        public var code: Int32
        public var description: String { "could not start \(program): \(String(cString: strerror(code)))" }
    }

    /// `posix_spawn`, set up as a shell would start a program: standard input /dev/null,
    /// output and error into the given pipes, no other descriptor of this process, a process
    /// group of its own, no signal blocked (a thread of Swift's pool blocks most of them, and
    /// a child inherits its starter's mask), in `currentDirectory`.
    enum Spawn {
        static func start(
            _ command: [String], environment: [String: String], currentDirectory: String?, stdin: Int32?,
            stdout: Int32, stderr: Int32
        ) throws -> pid_t {
            var command = command
            #if canImport(Darwin)
                var actions: posix_spawn_file_actions_t? = nil
                var attributes: posix_spawnattr_t? = nil
            #else
                var actions = posix_spawn_file_actions_t()
                var attributes = posix_spawnattr_t()
            #endif
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawnattr_init(&attributes)
            defer { posix_spawnattr_destroy(&attributes) }

            if let stdin {
                posix_spawn_file_actions_adddup2(&actions, stdin, 0)
            } else {
                posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            }
            posix_spawn_file_actions_adddup2(&actions, stdout, 1)
            posix_spawn_file_actions_adddup2(&actions, stderr, 2)
            var flags = Int32(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK)
            #if canImport(Darwin)
                flags |= Int32(POSIX_SPAWN_CLOEXEC_DEFAULT)  // what the actions above made is all it gets
                if let currentDirectory { posix_spawn_file_actions_addchdir_np(&actions, currentDirectory) }
            #else
                closeTheRest(&actions, keeping: [stdout, stderr] + (stdin.map { [$0] } ?? []))
                if let currentDirectory {
                    if let addChdir = GlibcExtras.addChdir {
                        _ = addChdir(&actions, currentDirectory)
                    } else {  // glibc before 2.29
                        command = ["/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", currentDirectory] + command
                    }
                }
            #endif
            posix_spawnattr_setflags(&attributes, Int16(flags))
            posix_spawnattr_setpgroup(&attributes, 0)
            var none = sigset_t()
            sigemptyset(&none)
            posix_spawnattr_setsigmask(&attributes, &none)

            let argv = command.map { strdup($0) } + [nil]
            let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
            defer { for pointer in argv + envp { free(pointer) } }
            var pid: pid_t = 0
            let code = posix_spawn(&pid, command[0], &actions, &attributes, argv, envp)
            guard code == 0 else { throw SpawnError(program: command[0], code: code) }
            return pid
        }

        #if !canImport(Darwin)
            /// Every descriptor from 3 up is closed in the child (but the pipes, which the
            /// child's 0, 1 and 2 become first): `closefrom` where glibc has it (2.34), otherwise
            /// one close per entry of /proc/self/fd, each name read only up to its end.
            static func closeTheRest(_ actions: inout posix_spawn_file_actions_t, keeping: [Int32]) {
                if let addClosefrom = GlibcExtras.addClosefrom {
                    _ = addClosefrom(&actions, 3)
                    return
                }
                guard let folder = opendir("/proc/self/fd") else { return }
                defer { closedir(folder) }
                let own = dirfd(folder)
                while let entry = readdir(folder) {
                    // The name where it is, up to its NUL: never a copy of the whole `d_name`.
                    let start = UnsafeRawPointer(entry) + (MemoryLayout<dirent>.offset(of: \.d_name) ?? 0)
                    let name = String(cString: start.assumingMemoryBound(to: CChar.self))
                    guard let fd = Int32(name), fd > 2, fd != own, !keeping.contains(fd) else { continue }
                    posix_spawn_file_actions_addclose(&actions, fd)
                }
            }
        #endif
    }

    #if !canImport(Darwin)
        /// What glibc has that Swift's Glibc module does not import (it needs `_GNU_SOURCE`),
        /// looked up by name: nil in a glibc too old to have it (pipe2 is 2.9, addchdir_np
        /// 2.29, addclosefrom_np 2.34; Debian 12 has 2.36).
        enum GlibcExtras {
            typealias AddChdir =
                @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>)
                -> Int32
            typealias AddClosefrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
            typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32

            static let addChdir = symbol("posix_spawn_file_actions_addchdir_np").map {
                unsafeBitCast($0, to: AddChdir.self)
            }
            static let addClosefrom = symbol("posix_spawn_file_actions_addclosefrom_np").map {
                unsafeBitCast($0, to: AddClosefrom.self)
            }
            static let pipe2 = symbol("pipe2").map { unsafeBitCast($0, to: Pipe2.self) }

            private static func symbol(_ name: String) -> UnsafeMutableRawPointer? {
                dlsym(dlopen(nil, RTLD_NOW), name)
            }
        }
    #endif
}

/// `write(2)` (the name `write` is `Child`'s own inside it).
private func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, bytes, count)
}
