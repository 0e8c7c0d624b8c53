import WorkshopCore

/// The server's and the room's texts (`Sources/WorkshopServer/Resources/ja.lproj`).
let localized = LocalizedTexts { .module }
