// Exercise NNx: the title of the exercise
// Check it: swift run workshop check NNx
import Foundation

/// TODO: the reference: the file as shipped with each of its changes made, and nothing more.
public enum Solution {
    public static func answer() -> Int {
        42
    }
}
