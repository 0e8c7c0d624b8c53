import ExerciseChecks
import Foundation
import WorkshopCore

/// The checks of exercise R2 (Exercises/R2-actor-reentrancy): a cache actor whose state is
/// checked before an `await` and written after it.
public enum ExerciseR2Checks {
    /// Asks the learner's cache (made once per check) for a name's avatar.
    public typealias Avatar = @Sendable (String) async throws -> String
    public typealias MakeCache = @Sendable (AvatarLoader) -> Avatar

    public static let names = ["aiko", "ben", "chiyo"]
    public static let callersPerName = 4
    public static let latency = 0.05
    static var callers: Int { callersPerName * names.count }

    // The checks, in the order they report: each declared once, in both languages.
    static let fetchedOnce = Check(
        "each avatar is fetched once, however many ask at once", ja: "同時にいくつ頼まれても、どのアバターも取得は 1 回",
        wanted: "\(callers) callers at once, \(callersPerName) per name: each name fetched 1 time",
        ja: "同時に \(callers) の呼び出し、名前ごとに \(callersPerName): どの名前も取得は 1 回", hint: 2)
    static let sameAvatar = Check(
        "everyone asking for a name gets the same avatar", ja: "同じ名前を頼んだ全員が同じアバターを受け取る",
        wanted: "the \(callersPerName) callers of a name all get one avatar (aiko#1 for aiko)",
        ja: "ある名前の \(callersPerName) つの呼び出しが、全員 1 つのアバターを受け取る（aiko なら aiko#1）", hint: 1)
    static let cachedCostsNothing = Check(
        "a cached avatar costs no fetch", ja: "キャッシュ済みのアバターは取得なしで返る",
        wanted: "asked again once all are in: each name's kept avatar, and no more fetches",
        ja: "全部そろってからもう一度頼むと、どの名前も覚えておいたアバターが返り、取得は増えない", hint: 3)
    static let failureNotKept = Check(
        "a failed fetch is not kept: the next ask fetches again", ja: "失敗した取得は覚えず、次に頼まれたらまた取得する",
        wanted: "after the first fetch of ghost failed, the next ask fetches again and gets ghost#2",
        ja: "ghost の 1 回目の取得が失敗したあと、次に頼むと取得し直して ghost#2 を受け取る", hint: 4)
    public static let all = [fetchedOnce, sameAvatar, cachedCostsNothing, failureNotKept]

    /// Every name asked for by `callersPerName` tasks at once; the answers by name.
    static func askAtOnce(_ avatar: @escaping Avatar, names: [String], loader: AvatarLoader) async -> [String: [String]]
    {
        await withTaskGroup(of: (String, String).self) { group in
            for name in names {
                for _ in 0..<callersPerName {
                    group.addTask {
                        loader.arrive()
                        do {
                            return (name, try await avatar(name))
                        } catch {
                            return (name, "error: \(error)")
                        }
                    }
                }
            }
            var answers: [String: [String]] = [:]
            for await (name, answer) in group { answers[name, default: []].append(answer) }
            return answers
        }
    }

    static func describe(_ counts: [String: Int], _ names: [String]) -> String {
        names.map { "\($0) \(localized(count: counts[$0] ?? 0, "%d time", "%d times", ja: "%d 回"))" }.joined(
            separator: localized(", ", ja: "、"))
    }

    /// Runs every check against caches made by `makeCache`.
    public static func run(_ makeCache: @escaping MakeCache) async -> [CheckResult] {
        let loader = AvatarLoader(latency: latency, callers: callersPerName * names.count)
        let avatar = makeCache(loader)
        let answers = await askAtOnce(avatar, names: names, loader: loader)
        let fetchedAtOnce = loader.counts
        // Everyone asking for a name got the same avatar: the one and only fetch's.
        let split = names.filter { Set(answers[$0] ?? []).count != 1 }

        // Asked again once everything is in: from the cache, no fetch.
        let again = await askAtOnce(avatar, names: names, loader: loader)
        let fetchedAgain = loader.counts
        // Each name's callers get one avatar, the one the cache kept.
        let keptOne = names.allSatisfy {
            Set(again[$0] ?? []).count == 1 && !(again[$0]?[0].hasPrefix("error") ?? true)
        }

        // The first fetch of "ghost" fails: the next caller must fetch again, not get the
        // failure (or nothing) kept in the cache.
        let flaky = AvatarLoader(latency: latency, failingOnce: "ghost")
        let flakyAvatar = makeCache(flaky)
        _ = try? await flakyAvatar("ghost")
        var retried: String
        do {
            retried = try await flakyAvatar("ghost")
        } catch {
            retried = localized(format: "error: %@", ja: "エラー:「%@」", "\(error)")
        }
        return [
            fetchedOnce.result(names.allSatisfy { fetchedAtOnce[$0] == 1 }, got: describe(fetchedAtOnce, names)),
            sameAvatar.result(
                split.isEmpty,
                got: split.isEmpty
                    ? localized("one avatar per name", ja: "どの名前もアバターは 1 つでした")
                    : split.map { "\($0): \(Set(answers[$0] ?? []).sorted().joined(separator: ", "))" }
                        .joined(separator: "; ")),
            cachedCostsNothing.result(
                fetchedAgain == fetchedAtOnce && keptOne,
                got: fetchedAgain != fetchedAtOnce
                    ? localized(format: "fetched again: %@", ja: "また取得しました: %@", describe(fetchedAgain, names))
                    : (keptOne
                        ? localized("no more fetches", ja: "取得は増えていません")
                        : localized(format: "not one avatar per name: %@", ja: "名前ごとのアバターが 1 つではありません: %@", "\(again)"))
            ),
            failureNotKept.result(
                retried == "ghost#2", got: localized(format: "it got %@", ja: "受け取ったのは %@", retried)),
        ]
    }
}
