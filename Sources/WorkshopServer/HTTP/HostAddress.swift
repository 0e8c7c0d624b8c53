import Foundation
import WorkshopCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The IPv4 address a fixture server listens on: 127.0.0.1 (this machine only), 0.0.0.0
/// (every interface: the room) or one interface's address.
public struct HostAddress: Sendable, Equatable, CustomStringConvertible {
    /// Dotted decimal, e.g. "127.0.0.1".
    public let text: String
    let address: in_addr_t  // network byte order

    public static let loopback = HostAddress(text: "127.0.0.1", address: inet_addr("127.0.0.1"))

    /// An IPv4 address in dotted decimal ("localhost" means 127.0.0.1). Nil for anything else:
    /// host names, IPv6, "1.2.3", "256.0.0.1".
    public init?(_ text: String) {
        let candidate = text == "localhost" ? "127.0.0.1" : text
        var parsed = in_addr()
        guard inet_pton(AF_INET, candidate, &parsed) == 1 else { return nil }
        self.text = candidate
        self.address = parsed.s_addr
    }

    private init(text: String, address: in_addr_t) {
        self.text = text
        self.address = address
    }

    public var description: String { text }

    /// 127.x.x.x: nothing outside this machine can reach it.
    public var isLoopback: Bool { text.hasPrefix("127.") }

    /// 0.0.0.0: every interface of this machine.
    public var isAny: Bool { text == "0.0.0.0" }

    /// The IPv4 addresses of this machine's interfaces other than loopback, e.g.
    /// ["192.168.1.23"]: what learners in the room put in `--server http://ADDRESS:PORT`.
    public static func interfaceAddresses() -> [String] {
        var first: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&first) == 0, let start = first else { return [] }
        defer { freeifaddrs(first) }
        var found: [String] = []
        var cursor: UnsafeMutablePointer<ifaddrs>? = start
        while let entry = cursor {
            defer { cursor = entry.pointee.ifa_next }
            guard let socketAddress = entry.pointee.ifa_addr, socketAddress.pointee.sa_family == sa_family_t(AF_INET)
            else { continue }
            let ipv4 = socketAddress.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
            let text = ipv4String(ipv4)
            if !text.hasPrefix("127."), !found.contains(text) { found.append(text) }
        }
        return found
    }
}

/// "a.b.c.d" for an IPv4 address.
func ipv4String(_ address: in_addr) -> String {
    var copy = address
    var buffer = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
    guard inet_ntop(AF_INET, &copy, &buffer, socklen_t(buffer.count)) != nil else { return "?" }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
