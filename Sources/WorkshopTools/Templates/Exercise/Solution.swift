// Exercise NNx: the title of the exercise
// Check it: swift run workshop check NNx
import Foundation

/// TODO: what this type does for the lesson's app, and what is wrong with it as shipped. As
/// written by `workshop new exercise`, the one check wants `answer()` to return 42.
public enum Solution {
    public static func answer() -> Int {
        0  // TODO(1): return the answer
    }
}
