import Testing
@testable import lesson05
import WorkshopCore
