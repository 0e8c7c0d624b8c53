import Foundation
import WorkshopCore
import WorkshopServer

#if canImport(FoundationXML)
    import FoundationXML  // XMLParser lives here on Linux (built on libxml2)
#endif

/// One record of an API (a user, a status, an item): its attributes and the text of each
/// child element, e.g. ["id": "100037", "name": "Aoi Sato", "followers": "812"].
public struct Record: Equatable, Sendable {
    public var fields: [String: String]
}

/// Why a document could not be read.
public struct ParseFailure: Error, CustomStringConvertible, Equatable {
    public let api: String
    public let line: Int
    public let reason: String
    public var description: String {
        localized("the %1$@ XML is malformed at line %2$@: %3$@", api, String(line), reason)
    }
}

/// Turns an API's XML into records with `XMLParser` (SAX style, as the article's libxml2
/// push parser). It is plain, synchronous work: whichever thread calls `parse` does it.
public final class RecordParser: NSObject, XMLParserDelegate {
    private let recordElement: String
    private var records: [Record] = []
    private var current: [String: String]?
    private var text = ""
    /// Elements open right now; back to 0 only when the root element has closed.
    private var depth = 0
    private var sawRoot = false

    private init(recordElement: String) {
        self.recordElement = recordElement
    }

    public static func parse(_ data: Data, as api: XMLAPIs.API) throws(ParseFailure) -> [Record] {
        let delegate = RecordParser(recordElement: api.recordElement)
        let parser = XMLParser(data: data)
        parser.delegate = delegate
        guard parser.parse() else {
            let reason = parser.parserError.map { ($0 as NSError).localizedDescription } ?? "unknown error"
            throw ParseFailure(api: api.name, line: parser.lineNumber, reason: reason)
        }
        // On Linux, XMLParser reports success for a document that simply stops (measured:
        // half a document parses "fine"). So check ourselves that the root element closed.
        guard delegate.sawRoot, delegate.depth == 0 else {
            throw ParseFailure(
                api: api.name, line: parser.lineNumber,
                reason: delegate.sawRoot
                    ? localized("the document ends with %@ element(s) still open", String(delegate.depth))
                    : localized("no XML elements at all"))
        }
        return delegate.records
    }

    public func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
        qualifiedName: String?, attributes: [String: String] = [:]
    ) {
        depth += 1
        sawRoot = true
        if name == recordElement {
            current = attributes
        } else if current != nil {
            // Attributes of children count too, e.g. <price currency="JPY">: "price.currency".
            for (key, value) in attributes { current?["\(name).\(key)"] = value }
        }
        text = ""
    }

    public func parser(_ parser: XMLParser, foundCharacters string: String) {
        text += string
    }

    public func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        depth -= 1
        if name == recordElement, let record = current {
            records.append(Record(fields: record))
            current = nil
        } else if current != nil {
            let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
            // Repeated children (<tag>) are joined: "sale,gift".
            if let earlier = current?[name], !value.isEmpty {
                current?[name] = earlier + "," + value
            } else if !value.isEmpty || current?[name] == nil {
                current?[name] = value
            }
        }
        text = ""
    }
}
