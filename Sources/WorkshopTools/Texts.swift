import WorkshopCore

/// The workshop tools' texts (`Sources/WorkshopTools/Resources/ja.lproj/Localizable.strings`).
let localized = LocalizedTexts { .module }
