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
        var matrix = equations.map { equation -> ([Double], Double) in
            var row = [Double](repeating: 0, count: variableCount)
            for (column, value) in equation.coefficients { row[column] += value }
            return (row, equation.constant)
        }
        var pivotRow = 0
        var pivots: [Int] = []
        for column in 0..<variableCount where pivotRow < matrix.count {
            // The largest entry in this column keeps rounding errors small (partial pivoting).
            guard let best = (pivotRow..<matrix.count).max(by: { abs(matrix[$0].0[column]) < abs(matrix[$1].0[column]) }),
                  abs(matrix[best].0[column]) > Self.tolerance else { continue }
            matrix.swapAt(pivotRow, best)
            let scale = matrix[pivotRow].0[column]
            matrix[pivotRow].0 = matrix[pivotRow].0.map { $0 / scale }
            matrix[pivotRow].1 /= scale
            for other in matrix.indices where other != pivotRow {
                let factor = matrix[other].0[column]
                guard abs(factor) > Self.tolerance else { continue }
                for k in 0..<variableCount { matrix[other].0[k] -= factor * matrix[pivotRow].0[k] }
                matrix[other].1 -= factor * matrix[pivotRow].1
            }
            pivots.append(column)
            pivotRow += 1
        }
        // Rows left over are all zeros on the left; a nonzero right side is a contradiction.
        isContradictory = matrix[pivotRow...].contains { abs($0.1) > 1e-6 }
        // Reduced row echelon form: row i has a 1 in column pivots[i] and 0 in every other pivot column.
        for (row, pivot) in pivots.enumerated() {
            let others = (0..<variableCount).contains { $0 != pivot && abs(matrix[row].0[$0]) > Self.tolerance }
            if !others { determinedValues[pivot] = matrix[row].1 }
        }
    }

    /// The smallest set of equations (by index) that still contradict each other: drop each
    /// equation in turn and keep it out if the rest still contradict. Empty if consistent.
    static func conflictingSubset(of equations: [LinearEquation], variableCount: Int) -> [Int] {
        guard LinearSystem(variableCount: variableCount, equations: equations).isContradictory else { return [] }
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
