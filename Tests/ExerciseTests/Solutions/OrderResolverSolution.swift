import WorkshopCore

/// Reference solution of exercise 05. Kept under Tests/ so a learner does not stumble on it.
enum OrderResolverSolution {
    static func resolve(_ records: [OrderRecord], using products: ProductTable) throws -> [Order] {
        // One query for every product, once; then only dictionary lookups.
        let byCode = Dictionary(try products.allProducts().map { ($0.code, $0) }, uniquingKeysWith: { first, _ in first })
        return try records.map { record in
            guard let product = byCode[record.productCode] else {
                throw CatalogError.unknownProduct(code: record.productCode, orderID: record.id)
            }
            return Order(record: record, product: product)
        }
    }
}
