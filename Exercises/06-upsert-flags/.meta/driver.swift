import ExerciseChecks
import WorkshopCore

ExerciseDriver.run(Exercise06Checks.all) { Exercise06Checks.run { try FlagSaver.saveFlags($0, into: $1) } }
