import Foundation
import WorkshopCore
import WorkshopServer

#if canImport(FoundationXML)
    import FoundationXML  // XMLParser lives here on Linux (built on libxml2)
#endif

public typealias FeedItem = FeedAPI.Item

/// Turns XMLParser's events into `FeedItem`s: one each time an `</item>` closes.
final class FeedXMLDelegate: NSObject, XMLParserDelegate {
    private let onItem: (FeedItem) -> Void
    private var fields: [String: String] = [:]
    private var text = ""
    private var insideItem = false
    private(set) var count = 0

    init(onItem: @escaping (FeedItem) -> Void) { self.onItem = onItem }

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
        qualifiedName: String?, attributes: [String: String] = [:]
    ) {
        if name == "item" {
            insideItem = true
            fields = [:]
        }
        text = ""
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if name == "item" {
            insideItem = false
            count += 1
            onItem(FeedItem(title: fields["title"] ?? "", author: fields["author"] ?? "", link: fields["link"] ?? ""))
        } else if insideItem {
            fields[name] = text.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        text = ""
    }

    /// Runs `parser` to the end and says how it went: how many items, or why `url`'s body is not a feed.
    static func run(_ parser: XMLParser, url: URL, onItem: @escaping (FeedItem) -> Void) -> Result<Int, FetchError> {
        func malformed(_ why: String) -> Result<Int, FetchError> { .failure(.malformed(why, url: url.absoluteString)) }
        let delegate = FeedXMLDelegate(onItem: onItem)
        parser.delegate = delegate
        let succeeded = parser.parse()
        // On Linux `parse()` returns true for a document that simply stops (a cut-off download),
        // with `parserError` set: so the error, not the return value, is the verdict.
        if let error = parser.parserError { return malformed(notWellFormed(parser, reason(error))) }
        guard succeeded else { return malformed(notWellFormed(parser, localized("the parser gave up"))) }
        return delegate.count > 0 ? .success(delegate.count) : malformed(notAFeed)
    }

    /// Why a body is not a feed, in the program's language (FetchError shows it as it is):
    /// "not well-formed XML (line 493, column 32): the document ends before ...".
    static func notWellFormed(_ parser: XMLParser, _ reason: String) -> String {
        localized("not well-formed XML (line %1$d, column %2$d): %3$@", parser.lineNumber, parser.columnNumber, reason)
    }

    static var notAFeed: String { localized("a feed without <item> elements") }

    /// Words for libxml2's error codes. Linux gives them without a message, and its
    /// `XMLParser.ErrorCode` enum is numbered one off from libxml2's codes (measured: rawValue 5
    /// is `invalidHexCharacterRefError`), so the numbers are matched here directly.
    static func reason(_ error: Error) -> String {
        switch (error as NSError).code {
        case 4: localized("the document is empty")
        case 5: localized("the document ends before its elements are closed (cut off?)")
        case 73: localized("a tag is not closed with '>'")
        case 76: localized("a closing tag does not match its opening tag")
        case 77: localized("the document ends inside an element (cut off?)")
        case let code: localized("libxml2 error %d", code)
        }
    }
}

/// Parse-after-download: the whole document must be in memory before the first item exists.
public enum FeedParser {
    public static func parse(_ data: Data, url: URL, onItem: @escaping (FeedItem) -> Void = { _ in }) -> Result<
        [FeedItem], FetchError
    > {
        var items: [FeedItem] = []
        let outcome = FeedXMLDelegate.run(XMLParser(data: data), url: url) { item in
            items.append(item)
            onItem(item)
        }
        return outcome.map { _ in items }
    }
}

/// Push parsing: feed it chunks as they come off the network; items come out as soon as
/// their `</item>` has arrived.
///
/// The article pushed each chunk into libxml2's push parser (`xmlParseChunk`) right in the
/// connection callback. FoundationXML has no public push API, but `XMLParser(stream:)` reads
/// its stream a piece at a time and reports elements as it goes. So the chunks go into a pipe,
/// and a small parser thread runs `XMLParser` on the pipe's other end: `append` never parses,
/// it only writes, so the network thread stays free for the next callback.
///
/// Sendable, checked: `append`, `finish` and `abort` come from the network thread, the parser
/// thread only reads the pipe, and what both look at (`aborted`, `writerClosed`) is a Locked.
final class StreamingFeedParser: Sendable {
    private struct Ends {
        var aborted = false
        var writerClosed = false
    }
    private let pipe = Pipe()
    private let ends = Locked(Ends())

    /// `onItem` runs on the parser thread for each item of `url`'s feed; `onEnd` once, after the last one.
    init(
        url: URL, onItem: @escaping @Sendable (FeedItem) -> Void,
        onEnd: @escaping @Sendable (Result<Int, FetchError>) -> Void
    ) {
        let path = "/dev/fd/\(pipe.fileHandleForReading.fileDescriptor)"
        let thread = Thread { [pipe, ends] in
            let stream = InputStream(fileAtPath: path)
            guard let stream else {
                onEnd(.failure(.transport("the parser cannot open its pipe at \(path)", url: url.absoluteString)))
                return
            }
            let parser = XMLParser(stream: stream)
            let outcome = FeedXMLDelegate.run(parser, url: url) { item in
                if ends.current.aborted { parser.abortParsing() } else { onItem(item) }
            }
            if !ends.current.aborted { onEnd(outcome) }
            // A parser that stopped early (bad XML) reads no more, but the download goes on:
            // keep reading to the end, so that the writer never blocks on a full pipe.
            _ = try? pipe.fileHandleForReading.readToEnd()
        }
        thread.name = "xml-parser"
        thread.start()
    }

    // `append`, `finish` and `abort` are called on the network thread only: one writer.

    /// Hands the parser the next chunk.
    func append(_ chunk: Data) {
        guard ends.withLock({ !$0.aborted && !$0.writerClosed }) else { return }
        try? pipe.fileHandleForWriting.write(contentsOf: chunk)
    }

    /// The download is complete: the parser reads to the end and reports.
    func finish() { closeWriter() }

    /// Gives up: no more items or end report will come.
    func abort() {
        ends.withLock { $0.aborted = true }
        closeWriter()
    }

    /// Closing the write end is the parser's end of file. Only once: a second close could hit
    /// another file that has reused the descriptor number.
    private func closeWriter() {
        let wasClosed = ends.withLock { ends in
            defer { ends.writerClosed = true }
            return ends.writerClosed
        }
        if !wasClosed { try? pipe.fileHandleForWriting.close() }
    }
}
