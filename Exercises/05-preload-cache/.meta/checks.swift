import ExerciseChecks
import Foundation
import Lesson05Kit
import WorkshopCore
import WorkshopServer

/// The checks of exercise 05 (Exercises/05-preload-cache): every order's product with one query.
public enum Exercise05Checks {
    public typealias Resolve = ([OrderRecord], ProductTable) throws -> [Order]

    public static let products = 2_000
    public static let orders = 1_500

    /// Orders of which some name products the database does not have (codes past `products`),
    /// and the first of those: the order the unknown-product check wants named.
    static let unknownOrders = CatalogAPI.orders(count: 40, products: products + 1_000)
    static let firstUnknown: OrderRecord? = {
        let codes = Set(CatalogAPI.products(count: products).map(\.code))
        return unknownOrders.first { !codes.contains($0.productCode) }
    }()

    // The checks, in the order they report: each declared once, in both languages.
    static let everyOrder = Check(
        "every order gets its own product", ja: "どの注文にも、その注文の商品が付く",
        wanted: "\(orders) orders, in the records' order, each with the product its record names",
        ja: "注文 \(orders) 件が、レコードと同じ順で、それぞれレコードが指す商品付きで返る", hint: 3)
    static let oneQuery = Check(
        "one query, however many orders", ja: "注文がいくつあってもクエリは 1 回",
        wanted: "1 query for \(orders) orders and 1 for 10 orders", ja: "注文 \(orders) 件でクエリ 1 回、注文 10 件でも 1 回", hint: 1)
    static let unknownProduct = Check(
        "an unknown product is an error, not a crash", ja: "知らない商品はクラッシュではなくエラーになる",
        wanted: String(
            format: "CatalogError.unknownProduct for the first order naming a missing product (order %1$@, %2$@)",
            firstUnknown.map { "\($0.id)" } ?? "?", firstUnknown?.productCode ?? "?"),
        ja: String(
            format: "ない商品を指す最初の注文（注文 %1$@、%2$@）で CatalogError.unknownProduct が投げられる",
            firstUnknown.map { "\($0.id)" } ?? "?", firstUnknown?.productCode ?? "?"),
        hint: 4)
    public static let all = [everyOrder, oneQuery, unknownProduct]

    /// Runs every check against `resolve`, on a real SQLite file in a scratch folder.
    public static func run(_ resolve: Resolve) -> [CheckResult] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("exercise05-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("shop.sqlite").path
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try ProductTable.create(at: path, products: CatalogAPI.products(count: products))
        } catch {
            return [
                CheckResult(
                    name: "the products database can be made", ja: "商品データベースを作れる", passed: false,
                    expected: localized(format: "a SQLite file with %d products", ja: "商品 %d 件の SQLite ファイル", products),
                    got: "\(error)", hint: 1)
            ]
        }
        let catalog = Dictionary(uniqueKeysWithValues: CatalogAPI.products(count: products).map { ($0.code, $0) })
        func expected(_ records: [OrderRecord]) -> [Order] {
            records.compactMap { record in catalog[record.productCode].map { Order(record: record, product: $0) } }
        }

        // 1 and 2: the right orders, with one query, for many orders and for a few.
        var correct: (passed: Bool, got: String) = (
            true, localized("every order with its own product", ja: "どの注文にも、その注文の商品が付いています")
        )
        var queries: [Int] = []
        for count in [orders, 10] {
            let records = CatalogAPI.orders(count: count, products: products)
            do {
                let table = try ProductTable(path: path)
                let resolved = try resolve(records, table)
                queries.append(table.queriesIssued)
                if resolved != expected(records), correct.passed {
                    let wrong = zip(resolved, expected(records)).first { $0 != $1 }.map {
                        localized(format: "; order %@ is wrong", ja: "。注文 %@ が違います", "\($0.1.id)")
                    }
                    correct = (
                        false,
                        localized(
                            format: "%1$@ for %2$@", ja: "%2$@に対して%1$@",
                            localized(count: resolved.count, "%d order", "%d orders", ja: "注文 %d 件"),
                            localized(count: count, "%d record", "%d records", ja: "レコード %d 件")) + (wrong ?? "")
                    )
                }
            } catch {
                queries.append(-1)
                if correct.passed {
                    correct = (
                        false,
                        localized(
                            format: "threw for %1$d good records: %2$@", ja: "正しいレコード %1$d 件でエラーが投げられました:「%2$@」", count,
                            "\(error)")
                    )
                }
            }
        }

        // 3: an order naming a product the database does not have.
        let unknown = unknownOrders
        guard let firstUnknown else { return [] }
        var unknownGot = localized("no error", ja: "エラーなし")
        var unknownPassed = false
        do {
            let table = try ProductTable(path: path)
            let resolved = try resolve(unknown, table)
            unknownGot = localized(
                format: "no error, %@", ja: "エラーなし、%@",
                localized(count: resolved.count, "%d order", "%d orders", ja: "注文 %d 件"))
        } catch let error as CatalogError {
            unknownPassed = error == .unknownProduct(code: firstUnknown.productCode, orderID: firstUnknown.id)
            unknownGot = "\(error)"
        } catch {
            unknownGot = localized(format: "another error: %@", ja: "別のエラー:「%@」", "\(error)")
        }

        return [
            everyOrder.result(correct.passed, got: correct.got),
            oneQuery.result(
                queries == [1, 1],
                got: queries.map {
                    $0 < 0
                        ? localized("an error", ja: "エラー")
                        : localized(count: $0, "%d query", "%d queries", ja: "クエリ %d 回")
                }
                .joined(separator: localized(" and ", ja: "、"))),
            unknownProduct.result(unknownPassed, got: unknownGot),
        ]
    }
}
