import AsyncSocketCore
import Testing

@Suite("Rules: the connect race over a connect's addresses")
struct ConnectRaceTests {
    struct Refused: Error, CustomStringConvertible {
        let name: String
        var description: String { name }
    }

    /// The actions as short words, so a table can say them.
    static func words(_ actions: [ConnectRace<String>.Action]) -> [String] {
        actions.map { action in
            switch action {
            case .start(let attempt, let address): "start \(attempt) \(address)"
            case .armStagger(let seconds): "arm \(seconds)"
            case .disarmStagger: "disarm"
            case .abandon(let attempt): "abandon \(attempt)"
            case .won(let attempt): "won \(attempt)"
            case .failed(let error): "failed \(error.map { "\($0)" } ?? "nil")"
            }
        }
    }

    /// A race, and the words its events produce.
    struct Script {
        var race: ConnectRace<String>

        init(_ addresses: [String]) {
            race = ConnectRace(addresses: addresses, stagger: 0.3)
        }

        mutating func start() -> [String] { words(race.start()) }
        mutating func stagger() -> [String] { words(race.staggerFired()) }
        mutating func fail(_ attempt: Int, _ name: String) -> [String] {
            words(race.failed(attempt, error: Refused(name: name)))
        }
        mutating func failAtStart(_ attempt: Int, _ name: String) -> [String] {
            words(race.startFailed(attempt, error: Refused(name: name)))
        }
        mutating func succeed(_ attempt: Int) -> [String] { words(race.succeeded(attempt)) }
        mutating func cancel() -> [String] { words(race.cancel()) }
    }

    @Test("one address: it starts, with no stagger; its success wins")
    func single() {
        var script = Script(["a"])
        #expect(script.start() == ["start 0 a"])
        #expect(script.succeed(0) == ["won 0"])
        #expect(script.race.isOver)
    }

    @Test("no address at all: the race fails at once with no error")
    func empty() {
        var script = Script([])
        #expect(script.start() == ["failed nil"])
        #expect(script.race.isOver)
    }

    @Test("the stagger adds one address at a time to the attempts in flight, and stops arming after the last")
    func staggered() {
        var script = Script(["a", "b", "c"])
        #expect(script.start() == ["start 0 a", "arm 0.3"])
        #expect(script.stagger() == ["start 1 b", "arm 0.3"])
        #expect(script.stagger() == ["start 2 c"])
        #expect(script.race.inFlight == [0, 1, 2])
        #expect(script.stagger() == [])
    }

    @Test("a failure while others are in flight waits for them; the last one in flight failing starts the next now")
    func failureAdvancesOnlyWhenNothingIsInFlight() {
        var script = Script(["a", "b", "c"])
        _ = script.start()
        _ = script.stagger()
        #expect(script.fail(0, "first") == [])
        #expect(script.fail(1, "second") == ["disarm", "start 2 c"])
        #expect(script.fail(2, "third") == ["failed third"])
        #expect(script.race.isOver)
    }

    @Test("an attempt that fails while starting is replaced at once, even with others in flight")
    func startFailureAdvancesAtOnce() {
        var script = Script(["a", "b", "c"])
        _ = script.start()
        _ = script.stagger()
        #expect(script.failAtStart(1, "no socket") == ["disarm", "start 2 c"])
        #expect(script.race.inFlight == [0, 2])
        #expect(script.failAtStart(2, "no bind") == [])
        #expect(script.fail(0, "refused") == ["failed refused"])
    }

    @Test("every address failing at start: the race fails with the last error, having tried each once")
    func allFailAtStart() {
        var script = Script(["a", "b"])
        #expect(script.start() == ["start 0 a", "arm 0.3"])
        #expect(script.failAtStart(0, "one") == ["disarm", "start 1 b"])
        #expect(script.failAtStart(1, "two") == ["failed two"])
    }

    @Test("the first success wins: the others are abandoned and the stagger disarmed")
    func firstSuccessWins() {
        var script = Script(["a", "b", "c"])
        _ = script.start()
        _ = script.stagger()
        #expect(script.succeed(1) == ["abandon 0", "disarm", "won 1"])
        #expect(script.race.inFlight.isEmpty)
    }

    @Test("after the race is over (won, failed, cancelled) every event is ignored")
    func overIgnoresEverything() {
        for end in ["won", "failed", "cancelled"] {
            var script = Script(["a", "b"])
            _ = script.start()
            switch end {
            case "won": _ = script.succeed(0)
            case "failed":
                _ = script.fail(0, "x")
                _ = script.fail(1, "y")
            default: #expect(script.cancel() == ["abandon 0", "disarm"])
            }
            #expect(script.race.isOver, "\(end)")
            #expect(script.start() == [], "\(end)")
            #expect(script.stagger() == [], "\(end)")
            #expect(script.fail(0, "late") == [], "\(end)")
            #expect(script.failAtStart(1, "late") == [], "\(end)")
            #expect(script.succeed(0) == [], "\(end)")
            #expect(script.succeed(1) == [], "\(end)")
            #expect(script.cancel() == [], "\(end)")
        }
    }

    @Test("events for an attempt that is not in flight (unknown, already failed) are ignored")
    func unknownAttempts() {
        var script = Script(["a", "b"])
        _ = script.start()
        #expect(script.fail(5, "stray") == [])
        #expect(script.succeed(1) == [])
        #expect(script.stagger() == ["start 1 b"])
        #expect(script.fail(1, "refused") == [])
        #expect(script.fail(1, "again") == [])
        #expect(script.succeed(1) == [])
        #expect(script.succeed(0) == ["won 0"])
    }

    @Test("an adopted attempt is the only one; its failure fails the race, its success wins")
    func adopted() {
        var failing = ConnectRace(addresses: ["a"], stagger: 0.3)
        #expect(failing.adopt() == 0)
        #expect(failing.inFlight == [0])
        #expect(Self.words(failing.staggerFired()) == [])
        #expect(Self.words(failing.failed(0, error: Refused(name: "refused"))) == ["failed refused"])
        var winning = ConnectRace(addresses: ["a"], stagger: 0.3)
        _ = winning.adopt()
        #expect(Self.words(winning.succeeded(0)) == ["won 0"])
    }

    @Test(
        "any order of events: each address starts at most once, in order; one outcome at most; nothing left in flight after it"
    )
    func randomScripts() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let count = Int.random(in: 0...5, using: &generator)
            let addresses = (0..<count).map { "a\($0)" }
            var race = ConnectRace(addresses: addresses, stagger: 0.3)
            var started: [Int] = []
            var outcomes = 0
            var staggerArmed = false
            var live = Set<Int>()
            func apply(_ actions: [ConnectRace<String>.Action]) {
                for action in actions {
                    switch action {
                    case .start(let attempt, let address):
                        #expect(address == addresses[attempt])
                        started.append(attempt)
                        live.insert(attempt)
                    case .armStagger: staggerArmed = true
                    case .disarmStagger: staggerArmed = false
                    case .abandon(let attempt): #expect(live.remove(attempt) != nil)
                    case .won(let attempt):
                        #expect(live.remove(attempt) != nil)
                        outcomes += 1
                    case .failed: outcomes += 1
                    }
                }
            }
            apply(race.start())
            for _ in 0..<12 {
                let attempt = Int.random(in: 0..<max(1, count), using: &generator)
                switch Int.random(in: 0..<5, using: &generator) {
                case 0 where staggerArmed:
                    staggerArmed = false
                    apply(race.staggerFired())
                case 1:
                    if live.remove(attempt) != nil { apply(race.failed(attempt, error: Refused(name: "x"))) }
                case 2:
                    if live.remove(attempt) != nil { apply(race.startFailed(attempt, error: Refused(name: "y"))) }
                case 3:
                    if live.contains(attempt) { apply(race.succeeded(attempt)) }
                case 4 where Bool.random(using: &generator) && Bool.random(using: &generator):
                    apply(race.cancel())
                default: break
                }
            }
            #expect(started == Array(0..<started.count))
            #expect(outcomes <= 1)
            if race.isOver {
                #expect(live.isEmpty)
                #expect(!staggerArmed)
            } else {
                #expect(Set(race.inFlight) == live)
                #expect(race.hasStagger == staggerArmed)
            }
        }
    }
}
