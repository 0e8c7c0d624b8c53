import Foundation
import Lesson04Kit
import Testing
import WorkshopCore
import WorkshopServer

@Suite("The three XML APIs and their parser")
struct XMLAPIsTests {
    @Test("three documents of different sizes, the largest about 1,000 lines")
    func sizes() {
        let lines = XMLAPIs.all.map { api in api.body().filter { $0 == UInt8(ascii: "\n") }.count }
        #expect(Set(lines).count == 3)
        #expect((900...1_100).contains(lines.max() ?? 0), "lines: \(lines)")
        #expect(lines.min() ?? 0 >= 300, "lines: \(lines)")
    }

    @Test("the same bytes every time (so gzip and identity can be compared byte for byte)")
    func stable() {
        for api in XMLAPIs.all { #expect(api.body() == api.body()) }
        #expect(XMLAPIs.catalog.body(count: 3) != XMLAPIs.catalog.body(count: 4))
    }

    @Test("every record parses, with its fields", arguments: XMLAPIs.all)
    func parses(api: XMLAPIs.API) throws {
        let records = try RecordParser.parse(Data(api.body()), as: api)
        #expect(records.count == api.defaultCount)
        let first = try #require(records.first)
        switch api.name {
        case "friends": #expect(first.fields["id"] == "100000" && first.fields["screen_name"] != nil)
        case "statuses": #expect(first.fields["text"]?.isEmpty == false && first.fields["user.screen_name"] != nil)
        default: #expect(first.fields["price.currency"] == "JPY" && first.fields["tag"]?.isEmpty == false)
        }
    }

    @Test("a document cut in half is a ParseFailure naming the API and the line")
    func truncated() {
        let body = XMLAPIs.catalog.body()
        let half = Data(body.prefix(body.count / 2))
        #expect {
            try RecordParser.parse(half, as: XMLAPIs.catalog)
        } throws: { error in
            guard let failure = error as? ParseFailure else { return false }
            return failure.api == "catalog" && failure.line > 1 && "\(failure)".contains("malformed at line")
        }
    }

    @Test("bytes that are not XML at all are a ParseFailure too")
    func notXML() {
        #expect(throws: ParseFailure.self) {
            try RecordParser.parse(Data("{\"json\": true}".utf8), as: XMLAPIs.friends)
        }
        #expect(throws: ParseFailure.self) {
            try RecordParser.parse(Data([0x1f, 0x8b, 0x08, 0x00]), as: XMLAPIs.friends)
        }
    }

    @Test("the server gzips XML to what zlib level 6 makes, under 0.3 of identity")
    func serverGzip() throws {
        let server = FixtureServer()
        try server.start()
        defer { server.stop() }
        for api in XMLAPIs.all {
            let plain = try RawHTTP.get(port: server.port, path: api.path)
            let zipped = try RawHTTP.get(port: server.port, path: api.path, headers: ["Accept-Encoding": "gzip"])
            #expect(plain.headers["content-encoding"] == nil)
            #expect(zipped.headers["content-encoding"] == "gzip")
            #expect(plain.body == api.body())
            #expect(try Gzip.decompress(zipped.body) == plain.body)
            #expect(Double(zipped.wireBytes) < 0.3 * Double(plain.wireBytes))
            let level6 = try Gzip.compress(plain.body, level: 6).count
            #expect(abs(zipped.body.count - level6) <= level6 / 50)
        }
    }
}
