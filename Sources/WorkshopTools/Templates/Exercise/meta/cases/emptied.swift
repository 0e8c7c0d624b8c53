// Exercise NNx: the title of the exercise
// Check it: swift run workshop check NNx
import Foundation
