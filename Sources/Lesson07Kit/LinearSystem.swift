/// Linear equations `sum(coefficient x variable) == constant`, solved by Gauss-Jordan
/// elimination. This is all the "solver" a layout of equalities needs: Auto Layout's
/// Cassowary adds inequalities and priorities on top, which this workshop leaves out.
struct LinearEquation {
    var coefficients: [Int: Double]
    var constant: Double
    /// What this equation came from, for error messages ("label.width == scroll.width").
    var source: String
}

struct LinearSystem {
    static let tolerance = 1e-9

    let variableCount: Int
    /// True when elimination produced `0 == nonzero`: the equations contradict each other.
    private(set) var isContradictory = false
    /// Values of the variables the equations pin down: those whose row in the reduced
    /// matrix has no other variable left in it. The others are open.
    private(set) var determinedValues: [Int: Double] = [:]

    init(variableCount: Int, equations: [LinearEquation]) {
        self.variableCount = variableCount
        // One row per equation: the coefficients, then the constant (an augmented matrix,
        // stored flat: row r, column c is at r * width + c).
        let width = variableCount + 1
        var m = [Double](repeating: 0, count: equations.count * width)
        for (r, equation) in equations.enumerated() {
            for (column, value) in equation.coefficients { m[r * width + column] += value }
            m[r * width + variableCount] = equation.constant
        }
        let rowCount = equations.count
        var pivotRow = 0
        var pivots: [Int] = []
        for column in 0..<variableCount where pivotRow < rowCount {
            // The largest entry in this column keeps rounding errors small (partial pivoting).
            var best = pivotRow
            for r in pivotRow..<rowCount where abs(m[r * width + column]) > abs(m[best * width + column]) { best = r }
            let scale = m[best * width + column]
            guard abs(scale) > Self.tolerance else { continue }
            if best != pivotRow {
                for c in 0..<width { m.swapAt(best * width + c, pivotRow * width + c) }
            }
            for c in 0..<width { m[pivotRow * width + c] /= scale }
            for r in 0..<rowCount where r != pivotRow {
                let factor = m[r * width + column]
                guard abs(factor) > Self.tolerance else { continue }
                for c in 0..<width { m[r * width + c] -= factor * m[pivotRow * width + c] }
            }
            pivots.append(column)
            pivotRow += 1
        }
        // Rows left over are all zeros on the left; a nonzero right side is a contradiction.
        isContradictory = (pivotRow..<rowCount).contains { abs(m[$0 * width + variableCount]) > 1e-6 }
        // Reduced row echelon form: row i has a 1 in column pivots[i] and 0 in every other pivot column.
        for (row, pivot) in pivots.enumerated() {
            let others = (0..<variableCount).contains { $0 != pivot && abs(m[row * width + $0]) > Self.tolerance }
            if !others { determinedValues[pivot] = m[row * width + variableCount] }
        }
    }

    /// The smallest set of equations (by index) that still contradict each other: drop each
    /// equation in turn and keep it out if the rest still contradict.
    static func conflictingSubset(of equations: [LinearEquation], variableCount: Int) -> [Int] {
        var kept = Array(equations.indices)
        for index in equations.indices {
            let without = kept.filter { $0 != index }
            if LinearSystem(variableCount: variableCount, equations: without.map { equations[$0] }).isContradictory {
                kept = without
            }
        }
        return kept
    }
}
