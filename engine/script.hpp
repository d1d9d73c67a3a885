// A designer's own game as a Lua script (issue 42; docs/scripting.md): what the script declares
// (name, options, metrics, policies), read once, and the sandboxed LuaJIT states that play it.
//
// A script is a Lua chunk that returns one table: the game's declarations and four functions,
//   opening(o) -> s          a fresh game's state, a Lua table
//   step(s, o, roll, choose) one step of the game, changing s in place
//   over(s, o) -> boolean    whether the game has ended
//   result(s, o) -> table    the ended game's metrics, by name
// `roll(x)` draws from odds' own dice (x: a die's faces, a dice option, or dice text such as
// "3d6"), so a seed means the same dice for a script as for a kernel; `choose(choices)` (two
// seats: `choose(seat, choices)`) asks the seat's policy for one of the choices.
//
// The sandbox: no io, os, require, load of files or text, debug, ffi or jit; JIT compilation off,
// so the instruction hook runs everywhere: every 1000 instructions it looks at the stop flag
// (Ctrl-C answers at once) and at the step's budget (an endless loop is reported at its line);
// each state's memory is capped. Every error is one line "FILE:LINE: message" (UsageError).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/dice.hpp"
#include "engine/metric.hpp"
#include "engine/rule_options.hpp"
#include "engine/rule_values.hpp"

namespace odds::script {

// Bounds: a script's file, the memory of one Lua state, the instructions of one step.
inline constexpr std::size_t kMaxScriptFile = 1 << 20;
inline constexpr std::size_t kMaxScriptLine = 4096;
inline constexpr std::size_t kMemoryCap = std::size_t{256} << 20;
inline constexpr std::uint64_t kStepBudget = 200'000'000;
// The steps of one game, unless the script declares `max_steps` (up to kMostSteps): a game whose
// over() never says so is reported, not played for ever.
inline constexpr std::int64_t kDefaultMaxSteps = 1'000'000;
inline constexpr std::int64_t kMostSteps = 1'000'000'000;
inline constexpr int kMaxOptions = 64;
inline constexpr int kMaxPolicies = 32;

// restrict: a set of the choices a seat may never make (Declared::restricts), "none" or a comma
// list of words; odds enforces it in choose() for every policy (odds restrict, docs/skill.md).
enum class OptionType { integer, boolean, dice, faces, choice, restrict };

struct ScriptOption {
    std::string name, help, ruling;
    OptionType type = OptionType::integer;
    std::string default_text;        // as the user would type it
    std::int64_t min = 0, max = 0;   // integer
    int sides = 6;                   // faces: of a die of this many faces
    std::vector<std::string> words;  // choice, restrict
    bool always = true;              // in the scenario always; false: only when changed
};

struct ScriptMetric {
    std::string name, help;
    MetricKind kind = MetricKind::count;
    std::string unit;  // a count's: what one of it is, plural ("armies", "turns")
    // Bounds: a whole number, the name of an integer option whose value it is, or kFunction: the
    // metric's function lo(o) or hi(o) gives it (Machine::metric_specs).
    std::string lo, hi;
    std::int32_t scale = 1;  // the value is kept in 1/scale steps (0.5 with scale 2)
};
inline constexpr const char* kFunction = "()";

// A script's policies: its own rules of thumb (a `choose` function each), then the built-in ones
// every script has: random, and the searches rollout and mcts, which play any script's choices
// by simulating the game on from the choice (Machine::play: a step's rolls and choices are
// replayed from the step's start, the choice searched is forced, the game played to its end).
struct ScriptPolicy {
    enum class Kind { script, random, rollout, mcts };
    std::string name, help;
    Kind kind = Kind::script;
    bool searches() const { return kind == Kind::rollout || kind == Kind::mcts; }
};
// A seat's policy: an index into Declared::policies, and a search's parameters: rollout's
// simulations per choice (n), mcts's iterations (n) and exploration constant (c).
struct Seat {
    int policy = 0;
    std::int64_t n = 0;
    double c = 0;
};
// Whether any of the seats' policies searches.
bool searches(const std::vector<ScriptPolicy>& policies, std::span<const Seat> seats);
// A search's parameters (rollout:N, mcts:N:C), checked by the policy parser (sim/script_game).
inline constexpr std::int64_t kRolloutDefault = 16, kMostRollouts = 100'000;

// What a script declares, read once from the table it returns.
struct Declared {
    std::string path;  // as given: the game's name wherever a game is named
    std::string source;
    std::string name, title, summary;
    int version = 1;  // the script's rules version (odds check compares it)
    std::int64_t max_steps = kDefaultMaxSteps;
    // false: the script says its states are too many for odds exact, which then refuses at
    // once (and compare, run --report and tune play without trying it).
    bool exact = true;
    std::vector<std::string> seats;  // empty: a solo game
    std::vector<ScriptOption> options;
    std::vector<ScriptMetric> metrics;
    std::vector<std::string> headline, versus;
    // What a search maximises for a solo game: metric `goal` (an index into metrics; the first
    // headline metric unless the script says `goal = "NAME"`), or minimises it (`goal = "-NAME"`).
    // A two-seat game's search plays for its seat's win (versus), a draw counting half.
    std::size_t goal = 0;
    bool goal_least = false;
    // Each seat's restrict option (an index into options; -1: none), from the script's
    // `restrict`: the choices (strings offered to choose()) odds restrict may bar.
    std::array<int, 2> restricts{-1, -1};
    std::vector<ScriptPolicy> policies;  // the script's rules of thumb, then the built-in ones
    // odds skill's rungs below search, weakest first (`ladder`; default: random, then the rules
    // of thumb as declared).
    std::vector<std::string> ladder;
    std::optional<SurvivalSpec> survival;
};

// Reads and checks the script at `path` (its declarations, in a sandbox); throws UsageError
// "FILE:LINE: message" (or "FILE: message") for any fault.
std::shared_ptr<const Declared> load(const std::string& path);
// The same, of the script's text read already.
std::shared_ptr<const Declared> load(const std::string& path, std::string source);

// One option's value as the game reads it.
struct Value {
    std::int64_t number = 0;  // integer; boolean 0 or 1; choice: the word's index
    DiceExpr dice{};
    FaceSet faces{};
    bool operator==(const Value&) const = default;
};
using Values = std::vector<Value>;  // in the declared order

// The settings read against the declarations (throws UsageError naming the bad value and what
// is valid), every option not given at its default.
Values parse_values(const Declared& d, const Settings& settings);
// A value as the script's option table writes it back (2d6, 1-3, true, 12, a word).
std::string value_text(const Declared& d, const Values& v, std::size_t i);
// Every option NAME=VALUE in the declared order: the run's scenario.
std::string scenario(const Declared& d, const Values& v);

// The exact law of each metric of a script under given options and policies (odds exact):
// every roll of every step enumerated, equal states merged. A state is written down as bytes
// for that (engine/script_state.hpp): numbers, booleans, strings and tables of them.
struct Solution {
    std::vector<std::map<std::int32_t, double>> laws;  // per metric: its stored value's probability
    double unresolved = 0;     // the games still playing after max_steps steps
    std::uint64_t states = 0;  // states met, summed over the steps
    std::int64_t steps = 0;    // the steps until every game had ended (or max_steps)
    std::uint64_t rolls = 0;   // roll outcomes taken, summed over every sequence played
};
// The most states a solve meets (summed over its steps), the most sequences of roll outcomes
// one step may have, and its most work: Lua instructions and roll outcomes taken (each as 250
// instructions), so that a game too large to enumerate is refused within half a minute on a
// machine like this one's, not solved for hours.
inline constexpr std::uint64_t kMaxExactStates = 10'000'000;
inline constexpr std::uint64_t kMaxStepOutcomes = 1'000'000;
inline constexpr std::uint64_t kMaxExactWork = 10'000'000'000;

// One sandboxed Lua state with the script loaded: a worker thread plays its games on its own.
class Machine {
public:
    explicit Machine(std::shared_ptr<const Declared> d);
    ~Machine();
    Machine(const Machine&) = delete;
    Machine& operator=(const Machine&) = delete;
    // Plays one whole game under the options `o` on `dice`, seat k's choices made by policy
    // seats[k], writing the metrics into out[0..].
    // `start`: the state's bytes to play on from (a position, engine/script_position.hpp)
    // instead of opening(o); empty: a fresh game.
    void play(const Values& o, Dice& dice, std::span<const Seat> seats, std::int32_t* out,
              std::string_view start = {});
    // odds shape: one game as play() plays it, with p_t, the seats' expected result from the
    // state each step begins in, estimated by `rollouts` games played on from it by the same
    // policies, rollout r of step t on Dice(stream_seed(seed_of(t), r)); then the game's own
    // result. A result is seat 0's win (a draw half) or a solo game's goal scaled to 0..1.
    void trace(const Values& o, Dice& dice, std::span<const Seat> seats, int rollouts,
               const std::function<std::uint64_t(std::size_t t)>& seed_of, std::vector<double>& p);
    // The bytes of opening(o)'s state (odds state: the opening position).
    std::string opening_state(const Values& o);
    // The metrics with their bounds under these values, a bound that is a function called.
    std::vector<MetricSpec> metric_specs(const Values& o);
    // Every game at once under `o` and the seats' policies: each metric's exact law (or a bound,
    // with unresolved mass past max_steps). Throws UsageError past max_states states, for a roll
    // in over or result, or a state that cannot be written down; StopRequested when stopped.
    Solution solve(const Values& o, std::span<const Seat> seats,
                   std::uint64_t max_states = kMaxExactStates,
                   std::uint64_t max_work = kMaxExactWork, std::string_view start = {});

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace odds::script
