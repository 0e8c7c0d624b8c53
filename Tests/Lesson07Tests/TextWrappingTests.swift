import Testing
@testable import lesson07
import WorkshopCore

@Suite struct TextWrappingTests {
    let poem = ScrollViewDemo.poem
}
