import Foundation
import Testing
import WorkshopCore

@testable import Lesson07Kit

/// Cross-checks the lesson's solver against kiwisolver (Cassowary, the algorithm inside
/// Auto Layout), from PyPI: `pip install kiwisolver`. Skipped when python3 or kiwisolver is
/// missing. The Python side writes the same screens as kiwisolver constraints, with a
/// label's intrinsic width as a *strong* (not required) constraint: it wins only where no
/// required constraint decides the width, which is the rule our solver applies by hand.
@Suite(.enabled(if: KiwiCrossCheck.available, "python3 with kiwisolver (pip install kiwisolver) is not installed"))
struct KiwiCrossCheckTests {
    @Test func scrollViewPinningsMatchCassowary() throws {
        let kiwi = try #require(KiwiCrossCheck.results)
        for (key, pinning, columns) in [
            ("leftRight", ScrollViewDemo.Pinning.leftRight, 40), ("width", .width, 40), ("width24", .width, 24),
        ] {
            let expected = try #require(kiwi[key] as? [String: Any])
            let demo = ScrollViewDemo(pinning: pinning, columns: columns)
            try demo.layout.solve()
            for view in [demo.window, demo.scroll, demo.label] {
                #expect(KiwiCrossCheck.frame(expected[view.name]) == view.frame, "\(key): \(view.name)")
            }
            #expect(
                expected["content"] as? [Double] == [demo.scroll.contentSize.width, demo.scroll.contentSize.height],
                "\(key)")
            #expect(expected["lines"] as? [String] == demo.label.lines, "\(key): Python's own wrap")
        }
    }

    @Test func articleCellsMatchCassowary() throws {
        let kiwi = try #require(KiwiCrossCheck.results)
        let cell = SizingCell.articleCell()
        let ours = try (0..<10).map { try cell.height(forArticleRow: $0) }
        #expect(kiwi["cells"] as? [Double] == ours)
    }

    @Test func multipliersAndCentresMatchCassowary() throws {
        let kiwi = try #require(KiwiCrossCheck.results)
        let expected = try #require(kiwi["centres"] as? [String: Any])
        let window = View("window")
        let a = View("a")
        let b = View("b")
        window.addSubview(a)
        window.addSubview(b)
        try Layout(
            root: window,
            constraints: [
                Constraint(a, .width, equalTo: window, multiplier: 0.5),
                Constraint(a, .centerX, equalTo: window),
                Constraint(a, .top, equalTo: window, constant: 1),
                Constraint(a, .height, equalTo: nil, constant: 4),
                Constraint(b, .top, equalTo: a, .bottom, constant: 2),
                Constraint(b, .left, equalTo: a, .left),
                Constraint(b, .right, equalTo: window, .right, constant: -1),
                Constraint(window, .bottom, equalTo: b, .bottom, constant: 3),
            ], rootWidth: 40, rootHeight: nil
        ).solve()
        for view in [window, a, b] {
            #expect(KiwiCrossCheck.frame(expected[view.name]) == view.frame, "\(view.name)")
        }
    }
}

enum KiwiCrossCheck {
    static let available: Bool = run(["-c", "import kiwisolver"]) != nil

    /// The Python script's output (JSON), run once.
    static let output: String? = run(["-c", script])

    static var results: [String: Any]? {
        output.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    static func frame(_ value: Any?) -> Rect? {
        guard let v = value as? [Double], v.count == 4 else { return nil }
        return Rect(x: v[0], y: v[1], width: v[2], height: v[3])
    }

    /// Runs python3 with `arguments`; its stdout, or nil if it is missing or failed (30 s at most).
    static func run(_ arguments: [String]) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        do { try process.run() } catch { return nil }
        // Read to the end of the pipe (not only to the exit: the last chunk may still be in it),
        // on a thread of its own, so that a python3 that never ends cannot hold the test.
        let read = Locked(Data())
        let ended = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let data = out.fileHandleForReading.readDataToEndOfFile()
            read.withLock { $0 = data }
            ended.signal()
        }
        let deadline = DispatchTime.now() + 30
        if ended.wait(timeout: deadline) == .timedOut || exited.wait(timeout: deadline) == .timedOut {
            process.terminate()
            return nil
        }
        return process.terminationStatus == 0 ? String(decoding: read.current, as: UTF8.self) : nil
    }

    static let script = #"""
        import json, sys, unicodedata
        from kiwisolver import Solver, Variable, strength

        def cells(s):
            return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in s)

        def word_wrap(text, width):
            lines, line = [], ""
            for word in text.split():
                if line and cells(line) + 1 + cells(word) <= width:
                    line += " " + word; continue
                if line: lines.append(line); line = ""
                while cells(word) > width:
                    cut = ""
                    for ch in word:
                        if cells(cut + ch) > width: break
                        cut += ch
                    lines.append(cut); word = word[len(cut):]
                line = word
            return lines + [line]

        class V:
            def __init__(self, name):
                self.x, self.y, self.w, self.h = (Variable(name + "." + k) for k in "xywh")
            def frame(self): return [self.x.value(), self.y.value(), self.w.value(), self.h.value()]

        POEM = "秋の田の かりほの庵の 苫をあらみ 我が衣手は 露にぬれつつ"

        def scroll(pinning, columns, rows=8):
            s = Solver()
            window, scroll, label = V("window"), V("scroll"), V("label")
            cw, ch = Variable("contentWidth"), Variable("contentHeight")
            req = [window.x == 0, window.y == 0, window.w == columns, window.h == rows,
                   scroll.y == 1, scroll.x == 1, scroll.w == window.w - 2, scroll.y + scroll.h == window.h - 1,
                   # the label, in the scroll view's content coordinates: edges are the content's
                   label.y == 0, label.x == 0, label.y + label.h == ch]
            req.append(label.x + label.w == cw if pinning == "leftRight" else label.w == scroll.w)
            for c in req: s.addConstraint(c)
            # Intrinsic width: strong, so it only wins where nothing required decides the width.
            s.addConstraint((label.w == cells(POEM)) | strength.strong)
            # A scroll view's open content size: as far as its child reaches (weak).
            s.addConstraint((cw == label.x + label.w) | strength.weak)
            s.updateVariables()
            lines = word_wrap(POEM, int(label.w.value()))
            s.addConstraint((label.h == len(lines)) | strength.strong)
            s.addConstraint((ch == label.y + label.h) | strength.weak)
            s.updateVariables()
            return {"window": window.frame(), "scrollView": scroll.frame(), "label": label.frame(),
                    "content": [cw.value(), ch.value()], "lines": lines}

        def article_cell(row, width=320):
            s = Solver()
            cv, base, content = V("contentView"), V("baseView"), V("resizableView")
            side = (row + 1) * 5
            for c in [cv.x == 0, cv.y == 0, cv.w == width,
                      base.y == 0, base.x == 0, base.w == cv.w,
                      content.y == 10, base.h == content.y + content.h + 10,
                      content.w == side, content.h == side, content.x + content.w / 2 == base.w / 2]:
                s.addConstraint(c)
            s.addConstraint((cv.h == 0) | strength.weak)
            s.updateVariables()
            return {"baseView": base.frame(), "resizableView": content.frame()}

        def centres():
            s = Solver()
            window, a, b = V("window"), V("a"), V("b")
            for c in [window.x == 0, window.y == 0, window.w == 40,
                      a.w == 0.5 * window.w, a.x + a.w / 2 == window.w / 2, a.y == 1, a.h == 4,
                      b.y == a.y + a.h + 2, b.x == a.x, b.x + b.w == window.w - 1, window.h == b.y + b.h + 3]:
                s.addConstraint(c)
            s.addConstraint((b.h == 0) | strength.weak)
            s.updateVariables()
            return {"window": window.frame(), "a": a.frame(), "b": b.frame()}

        out = {"leftRight": scroll("leftRight", 40), "width": scroll("width", 40), "width24": scroll("width", 24),
               "cells": [article_cell(r)["baseView"][3] for r in range(10)], "centres": centres()}
        print(json.dumps(out, ensure_ascii=False))
        """#
}
