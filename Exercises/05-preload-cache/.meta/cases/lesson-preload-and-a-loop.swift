import Lesson05Kit
import WorkshopCore
import WorkshopServer

public enum OrderResolver {
    public static func resolve(_ records: [OrderRecord], using products: ProductTable) throws -> [Order] {
        // The lesson's own index: every product in one query, keyed by code.
        let index = try OrderParsing.preload(products)
        var orders: [Order] = []
        orders.reserveCapacity(records.count)
        for record in records {
            guard let product = index[record.productCode] else {
                throw CatalogError.unknownProduct(code: record.productCode, orderID: record.id)
            }
            orders.append(Order(record: record, product: product))
        }
        return orders
    }
}
