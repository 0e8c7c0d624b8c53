import ExerciseChecks
import WorkshopCore

ExerciseDriver.report(Exercise06Checks.run { try FlagSaver.saveFlags($0, into: $1) })
