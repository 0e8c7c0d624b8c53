import WorkshopCore

/// The lesson's own figures, in its table and `--json` (the ones several lessons share are in
/// WorkshopCore's `MetricName.swift`). Declared here, in the lesson's kit, and nowhere else:
/// `MetricNameTests` keeps every name unique across the modules.
extension MetricName {
    public static let lessonTemplateRowsShown = MetricName("lessonTemplateRowsShown")
}
