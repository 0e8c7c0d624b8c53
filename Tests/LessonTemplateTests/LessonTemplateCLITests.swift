import Foundation
import LessonTemplateKit
import LessonTestSupport
import Testing
import WorkshopCore

/// Drives the built `lessonTemplate` binary for what is lesson Template's own; what every lesson
/// promises (the report's shape, flags, help, Japanese, a cancel, a failing server) is the
/// contract suite's (`LessonContractTests`, from the contract in the kit). Swift Testing: a
/// program run in a process of its own has a main thread of its own.
@Suite struct LessonTemplateCLITests {
    @Test("every variant shows the rows --rows asks for", arguments: [1, 5])
    func everyVariantShowsTheRowsAskedFor(_ rows: Int) throws {
        let document = try LessonBinary("lessonTemplate").report(["--rows", "\(rows)", "--latency", "0.02"])
        #expect(document.variantNames == Variant.allCases.map(\.rawValue))
        #expect(document.counts(.lessonTemplateRowsShown) == [rows, rows, rows])
    }
}
