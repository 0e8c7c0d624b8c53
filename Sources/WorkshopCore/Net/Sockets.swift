#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The few socket spellings that differ between Linux's Glibc and Apple's Darwin, said once
/// (a test, PortabilityTests, fails on a Glibc-only or Darwin-only name used anywhere else
/// without its `#if`).
public enum Sockets {
    /// `SOCK_STREAM` as the socket call takes it: Glibc imports it as an enum case, Darwin as an Int32.
    public static var stream: Int32 {
        #if canImport(Glibc)
            return Int32(SOCK_STREAM.rawValue)
        #else
            return SOCK_STREAM
        #endif
    }

    /// Makes writes to `fd` give EPIPE instead of raising SIGPIPE when the peer has gone. Darwin
    /// says so per socket (SO_NOSIGPIPE); Linux says it per send (`send(_:_:)` below).
    public static func noSignalOnWrite(_ fd: Int32) {
        #if canImport(Darwin)
            var yes: Int32 = 1
            setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &yes, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    /// `send(2)` that never raises SIGPIPE: a closed peer gives -1 (EPIPE) instead.
    public static func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
        #if canImport(Glibc)
            return Glibc.send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
        #else
            return Darwin.send(fd, bytes.baseAddress, bytes.count, 0)  // SO_NOSIGPIPE is set on the socket
        #endif
    }
}
