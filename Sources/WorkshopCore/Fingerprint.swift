/// A short, stable fingerprint of some bytes (64-bit FNV-1a, in hex): the fixture server's
/// ETags, lesson 06's row checksums, an exercise file's identity as shipped.
public func fnv1a(_ bytes: [UInt8]) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    return String(hash, radix: 16)
}
