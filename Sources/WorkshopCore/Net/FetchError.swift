import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking  // URLError's codes come with URLSession on Linux
#endif

/// Why a fetch failed, in words a learner can act on. Every lesson's fetches end in this one
/// type, so a timeout reads the same in every lesson ("timed out after 10 s waiting for ...").
public enum FetchError: Error, CustomStringConvertible, Equatable, Sendable {
    case badURL(String)
    case httpStatus(Int, url: String)
    case timedOut(url: String, seconds: Double)
    /// The connection could not be made or broke: `reason` is already in words.
    case transport(String, url: String)
    case notHTTP(url: String)
    /// The body arrived but is not what we expected (cut short, not JSON, not XML, ...).
    case malformed(String, url: String)
    case cancelled(url: String)
    /// The server kept redirecting (URLSession's limit, or `RedirectLimit.maximum`).
    case tooManyRedirects(url: String)

    /// In the program's language (`--json` forces English); the reasons stored in the cases stay
    /// English (they are compared in tests) and are looked up when shown.
    public var description: String {
        switch self {
        case .badURL(let text): localized(format: "not a usable http(s) URL: '%@'", text)
        case .httpStatus(let code, let url):
            localized(format: "the server answered HTTP %1$@ for %2$@", String(code), url)
        case .timedOut(let url, let seconds):
            localized(format: "timed out after %1$@ s waiting for %2$@", seconds.formattedSeconds, url)
        case .transport(let reason, let url): "\(localized(reason)) (\(url))"
        case .notHTTP(let url): localized(format: "%@ gave a response that is not HTTP", url)
        case .malformed(let why, let url):
            localized(format: "the body of %1$@ is not what we expected: %2$@", url, localized(why))
        case .cancelled(let url): localized(format: "cancelled: %@", url)
        case .tooManyRedirects(let url):
            localized(format: "too many redirects from %@: does the server redirect to itself?", url)
        }
    }

    /// The error URLSession reported, in words. libcurl underneath gives the same codes as
    /// Apple's loader; the text it attaches is often only "The operation could not be
    /// completed", so the words come from the code.
    public init(urlSessionError error: any Error, url: String, timeout: Double) {
        let nsError = error as NSError
        guard nsError.domain == NSURLErrorDomain else {
            self = .transport(nsError.localizedDescription, url: url)
            return
        }
        switch nsError.code {
        case NSURLErrorTimedOut: self = .timedOut(url: url, seconds: timeout)
        case NSURLErrorCancelled: self = .cancelled(url: url)
        case NSURLErrorHTTPTooManyRedirects: self = .tooManyRedirects(url: url)
        case NSURLErrorCannotConnectToHost: self = .transport("connection refused: nothing listens there", url: url)
        case NSURLErrorNetworkConnectionLost: self = .transport("the connection was reset mid-response", url: url)
        case NSURLErrorCannotFindHost, NSURLErrorDNSLookupFailed:
            self = .transport("the host name could not be found (DNS)", url: url)
        case NSURLErrorNotConnectedToInternet: self = .transport("this machine is not connected to a network", url: url)
        case NSURLErrorUnsupportedURL: self = .transport("URLSession does not load this kind of URL here", url: url)
        case NSURLErrorBadServerResponse, NSURLErrorCannotParseResponse:
            self = .transport("the server's answer was not valid HTTP", url: url)
        case NSURLErrorZeroByteResource:
            self = .transport("the server closed the connection without an answer", url: url)
        default:
            // libcurl's own words when it gave some (a corrupt gzip body arrives as error -1,
            // "Error while processing content unencoding: invalid block type"), else the code.
            let said = nsError.localizedDescription
            let vague = said.isEmpty || said.hasPrefix("The operation could not be completed")
            if said.contains("unencoding") || said.contains("decompress") {
                self = .malformed(
                    localized(format: "the body could not be decompressed, corrupt gzip (%@)", said), url: url)
            } else {
                self = .transport(vague ? "the connection failed (URLSession error \(nsError.code))" : said, url: url)
            }
        }
    }
}

extension Double {
    /// 10 -> "10", 0.5 -> "0.5", 0.25 -> "0.25": seconds as a person writes them.
    public var formattedSeconds: String {
        self == rounded() && abs(self) < 1e9 ? String(Int(self)) : String(format: "%g", self)
    }
}
