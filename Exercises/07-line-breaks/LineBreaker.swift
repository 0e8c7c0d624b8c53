import WorkshopCore

public enum LineBreaker {
    public static func wrap(_ text: String, width: Int) -> [String] { [text] }
}
