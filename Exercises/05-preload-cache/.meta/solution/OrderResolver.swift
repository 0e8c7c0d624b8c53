// Exercise 05: resolve every order's product with one query instead of one per order.
// Check it: swift run workshop check 05
import Lesson05Kit
import WorkshopCore
import WorkshopServer

/// Turns the orders the API sent into `Order`s, each with the product its record names, from
/// the app's local database, in the records' order; an order whose product the database does
/// not have is a `CatalogError.unknownProduct`, never a crash. As shipped it is right, and it
/// runs one query per record: 1,500 orders, 1,500 queries.
public enum OrderResolver {
    public static func resolve(_ records: [OrderRecord], using products: ProductTable) throws -> [Order] {
        // One query for every product, once; then only dictionary lookups.
        let byCode = Dictionary(
            try products.allProducts().map { ($0.code, $0) }, uniquingKeysWith: { first, _ in first })
        return try records.map { record in
            guard let product = byCode[record.productCode] else {
                throw CatalogError.unknownProduct(code: record.productCode, orderID: record.id)
            }
            return Order(record: record, product: product)
        }
    }
}
