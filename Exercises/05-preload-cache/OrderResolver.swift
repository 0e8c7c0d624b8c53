import WorkshopCore

/// Exercise 05: pre-load the products once instead of asking SQLite once per order.
///
/// `resolve` is called once per launch with the orders the API sent and the app's local
/// database of products. It must return one `Order` per record, in the same order, each with
/// the product its record names, and throw `CatalogError.unknownProduct` for a record whose
/// product the database does not have.
///
/// As shipped it is correct, but it runs one query per record: 1,500 orders, 1,500 queries.
/// Make it run exactly one query, however many orders there are:
///   1. read every product with one query (`products.allProducts()`);
///   2. put them in a dictionary keyed by product code;
///   3. look each record's product up in the dictionary.
/// Keep the error for an unknown product: a missing key must not crash the app.
///
/// Check your work:  swift test --filter Exercise05
public enum OrderResolver {
    public static func resolve(_ records: [OrderRecord], using products: ProductTable) throws -> [Order] {
        try records.map { record in
            // TODO: one query per record. Look the product up in a dictionary built once instead.
            guard let product = try products.product(code: record.productCode) else {
                throw CatalogError.unknownProduct(code: record.productCode, orderID: record.id)
            }
            return Order(record: record, product: product)
        }
    }
}
