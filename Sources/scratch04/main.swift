import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import WorkshopCore
#if canImport(FoundationXML)
import FoundationXML
#endif

for api in XMLAPIs.all {
    let body = api.body()
    let lines = body.filter { $0 == 10 }.count
    let z = try! Gzip.compress(body)
    let c = Stopwatch()
    let p = XMLParser(data: Data(body)); _ = p.parse()
    print(api.name, "lines", lines, "bytes", body.count, "gzip", z.count, String(format: "%.3f parse %.4f", Double(z.count)/Double(body.count), c.elapsed))
}
let echo: FixtureServer.Route = { req, _ in .text(200, req.headers.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: "\n")) }
let server = FixtureServer(routes: [("/echo", echo)] + FixtureAPI.routes)
let base = try! server.start()
let session = URLSession(configuration: .ephemeral)
func get(_ req: URLRequest) -> (Data?, URLResponse?, Error?) {
    let sem = DispatchSemaphore(value: 0)
    nonisolated(unsafe) var out: (Data?, URLResponse?, Error?) = (nil, nil, nil)
    session.dataTask(with: req) { d, r, e in out = (d, r, e); sem.signal() }.resume()
    _ = sem.wait(timeout: .now() + 20)
    return out
}
var r = URLRequest(url: base.appendingPathComponent("echo"))
print("DEFAULT:", String(decoding: get(r).0 ?? Data(), as: UTF8.self))
r.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
print("IDENTITY:", String(decoding: get(r).0 ?? Data(), as: UTF8.self))
r.setValue("gzip", forHTTPHeaderField: "Accept-Encoding")
print("GZIP:", String(decoding: get(r).0 ?? Data(), as: UTF8.self))
for q in ["gzip=1", "gzip=0", "fault=corrupt-gzip", "fault=truncated-gzip", "fault=malformed"] {
    let res = get(URLRequest(url: URL(string: base.absoluteString + "/xml/catalog?" + q)!))
    print(q, "data", res.0?.count as Any, "expected", res.1?.expectedContentLength as Any, "headers", (res.1 as? HTTPURLResponse)?.allHeaderFields as Any, "error", res.2 as Any)
}
server.stop()
