// A game's registration: the contract between a game and everything that runs it, one concept
// (Game, below) with one spelling for each hook. A game is two things:
//
// - its kernel: the functions of the game's namespace that take its Options or its State, found
//   there by argument-dependent lookup (game::scenario for game::Options), each with one
//   signature:
//     scenario(o) -> std::string           every effective rule option (the run's name)
//     metric_specs(o) -> vector<MetricSpec>  what a playout reports (engine/metric.hpp)
//     to_metrics(result, int32_t* out)     a playout's metrics, result being what play returns
//     play(o, policies..., dice)           a fresh game to its end (a Run, where K binds one)
//   and for games with positions (docs/positions.md):
//     opening(o) -> State                  the position a fresh game starts from (every playout
//                                          copies it); odds state GAME writes it
//     read_position(text, file, o) -> State  (throws UsageError "FILE:LINE: WHAT (RULE)")
//     write_position(s, o) -> std::string  read_position(write_position(s, o)) gives s back
//     play_from(s, o, policies..., dice)   on from s, in place; or play(s, policies..., dice)
//                                          where the start is not the state played (naval)
// - K, a struct of static members in engine/GAME/register.cpp: the registration's data (name,
//   seats, option table, policy table, survival tables, headline, ladder) and the optional
//   pieces that are not the rules (exact solver, shape, chunk size, warnings), most of them the
//   kernel's own functions (`static constexpr auto f = game::f;`).
//
// entry_of<K>(text) builds the registry entry (sim/registry.hpp) from both and the entry's text
// (title, summary, rules version, search...). Nothing here asks for a C++ type beyond the
// Options and State the hooks take and give: a game written as a script (its Options holding
// the loaded script, its State the script's values) answers the same calls.
// docs/adding-a-game.md walks through it.
//
// What K has:
//   name                          "fpb", as typed: odds run NAME
//   seats                         two-seat games: std::array of the seats' names ({"a", "b"})
//   parse_options                 Settings -> the kernel's Options (throws UsageError)
//   option_table                  -> the declared options (engine/rule_options.hpp), from which
//                                 odds list's rows and the settings' canonical values come
//   headline                      the metrics a baseline records, an array of names
//   ladder (optional)             odds skill's default rungs, weakest first (docs/skill.md)
//   policies                      the policy table (policies/policy_table.hpp), or a function
//                                 returning it
//   survival_spec                 the survival table, or survival_specs, several
//   warnings (optional)           Options -> lines printed on stderr before a run
//   chunk_size (optional)         the seats' policies -> the chunk size (else kChunkSize);
//                                 any_is<T>(seats...) asks whether a seat plays a T
//   solve_against (optional)      (Options, seat, Policy& mine, const Policy& other): makes a
//                                 seat whose policy needs a fixed opponent
//                                 (PolicyInfo::needs_fixed_opponent) play against the other
//   shape (optional)              (ShapeReport&, Options, seats, shape::Config, Sampler&) fills the
//                                 tally of a game's shape along its length (odds shape;
//                                 sim/shape_run.hpp samples it)
//   exact (optional)              (ExactReport&, Options[, seats][, State]) fills the laws (and
//                                 notes, survival) of a report entry_of names; with a State it
//                                 also solves from positions (odds exact --state). ExactReport
//                                 and ShapeReport are reports/exact_report.hpp's, so the game's
//                                 exact.cpp and shape.cpp fill them.
// A run whose options depend on the seats' policies (msc: each side's plan) is K's:
//   bind(o, seats, const PositionText*) -> the kernel's Run (the position read there, under the
//   plans), played as play(run, policies..., dice), named by scenario(run) and, optionally,
//   seat_scenario(run); and seat(made policy) -> the kernel's policy of a seat.
// A two-seat entry's versus, where the text names none, is SEAT_win for each seat, then draw.
#pragma once

#include <algorithm>
#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "policies/policy_table.hpp"
#include "sim/game_run.hpp"
#include "sim/registry.hpp"
#include "sim/shape_run.hpp"

namespace odds {

// A position as --state gives it: the text and the file it came from, for messages.
struct PositionText {
    std::string_view text, file;
};

// Whether one of the seats' policies is a T: what a chunk_size looks at (an expensive policy
// wants small chunks, for a prompt progress bar and Ctrl-C).
template <class T, class... P>
bool any_is(const P&... seats) {
    return (std::holds_alternative<T>(seats) || ...);
}

namespace registration {

// x, or x() where x is a function: the policy tables are either.
template <class T>
decltype(auto) value_of(const T& x) {
    if constexpr (std::is_invocable_v<const T&>)
        return x();
    else
        return (x);
}

template <class K>
constexpr std::size_t seat_count() {
    if constexpr (requires { K::seats; })
        return K::seats.size();
    else
        return 1;
}

template <class K>
using Options = std::remove_cvref_t<decltype(K::parse_options(std::declval<const Settings&>()))>;
// What a row of K's policy table makes.
template <class K>
using Made = std::remove_cvref_t<decltype(value_of(K::policies)[0].make(
    std::declval<const Options<K>&>(), PolicyArgs{}))>;
template <class K>
using MadeSeats = std::array<Made<K>, seat_count<K>()>;

template <class K>
concept Binds = requires(const Options<K>& o, const MadeSeats<K>& s) {
    K::bind(o, s, nullptr);
};
// The kernel's hooks (argument-dependent lookup, in the game's namespace).
template <class K>
concept HasPositions = requires(const Options<K>& o) {
    opening(o);
};
template <class K>
using State = std::remove_cvref_t<decltype(opening(std::declval<const Options<K>&>()))>;
// A game with positions writes them, and reads them (where K::bind does not, under its plans).
template <class K>
concept Positions = HasPositions<K> && requires(const Options<K>& o, const State<K>& s) {
    { write_position(s, o) } -> std::same_as<std::string>;
} &&(Binds<K> || requires(const Options<K>& o, std::string_view text) {
    { read_position(text, text, o) } -> std::same_as<State<K>>;
});
// K::exact(r, o, seats), or K::exact(r, o) where the seats' policies do not matter.
template <class K>
concept Solves = requires(ExactReport& r, const Options<K>& o, const MadeSeats<K>& s) {
    K::exact(r, o, s);
}
|| requires(ExactReport& r, const Options<K>& o) { K::exact(r, o); };
template <class K>
concept Shapes = requires(ShapeReport& r, const Options<K>& o, const MadeSeats<K>& s,
                          const shape::Config& c, shape::Sampler& games) {
    K::shape(r, o, s, c, games);
};
template <class K>
concept SolvesFrom = HasPositions<K> &&
    requires(ExactReport& r, const Options<K>& o, const MadeSeats<K>& s, const State<K>& start) {
    K::exact(r, o, s, start);
};

// The contract (the comment at the top): K's data and the kernel's hooks, each in one spelling.
template <class K>
concept Game = requires(const Options<K>& o) {
    { K::name } -> std::convertible_to<std::string_view>;
    K::option_table();
    value_of(K::policies);
    { scenario(o) } -> std::same_as<std::string>;
    { metric_specs(o) } -> std::same_as<std::vector<MetricSpec>>;
}
&&(!HasPositions<K> || Positions<K>);

// The policy a seat plays in the kernel: the made one, or K::seat of it.
template <class K>
auto seat_policy(const Made<K>& made) {
    if constexpr (requires { K::seat(made); })
        return K::seat(made);
    else
        return made;
}

// A run's options: K's own (Binds), the rules with the start (positions), or the rules.
template <class K>
struct Start {
    Options<K> rules;
    State<K> start;
};
template <class K>
struct RunOf {
    using type = Options<K>;
};
template <class K>
concept PlaysFromStart = HasPositions<K> && !Binds<K>;
template <PlaysFromStart K>
struct RunOf<K> {
    using type = Start<K>;
};
template <Binds K>
struct RunOf<K> {
    using type = std::remove_cvref_t<decltype(K::bind(
        std::declval<const Options<K>&>(), std::declval<const MadeSeats<K>&>(), nullptr))>;
};

// The kernel's play (argument-dependent lookup): play(o, policies..., dice) from a fresh game (o
// may be K::bind's run), or on a copy of the start: play_from(s, o, policies..., dice), else
// play(start, policies..., dice).
template <class O, class D, class... P>
void play_fresh(const O& o, D& dice, std::int32_t* metrics, P&... policies) {
    to_metrics(play(o, policies..., dice), metrics);
}
template <class S, class O, class D, class... P>
void play_on(const S& start, const O& o, D& dice, std::int32_t* metrics, P&... policies) {
    if constexpr (requires(S s) { play_from(s, o, policies..., dice); }) {
        S s = start;
        play_from(s, o, policies..., dice);
        to_metrics(s, metrics);
    } else {
        to_metrics(play(start, policies..., dice), metrics);
    }
}

// K's kernel as sim/game_run.hpp binds it.
template <class K>
struct Kernel {
    using Options = typename RunOf<K>::type;
    using Policy = decltype(seat_policy<K>(std::declval<const Made<K>&>()));
    using Seats =
        std::conditional_t<seat_count<K>() == 1, std::tuple<Policy>, std::tuple<Policy, Policy>>;
    template <class D, class... P>
    static void play(const Options& o, D& dice, std::int32_t* metrics, P&... policies) {
        if constexpr (PlaysFromStart<K>)
            play_on(o.start, o.rules, dice, metrics, policies...);
        else
            play_fresh(o, dice, metrics, policies...);
    }
};

// Where a run starts: the position read from `at`, else the opening.
template <class K>
State<K> position_of(const Options<K>& o, const PositionText* at) {
    if (!at) return opening(o);
    return read_position(at->text, at->file, o);
}
// The policy table's infos: worked out at compile time, or once where the table is a function's.
template <class K>
std::span<const PolicyInfo> infos() {
    if constexpr (std::is_invocable_v<decltype(K::policies)>) {
        static const auto kInfos = infos_of(K::policies());
        return kInfos;
    } else {
        static constexpr auto kInfos = infos_of(K::policies);
        return kInfos;
    }
}

// Two seats' versus metrics where the entry names none: each seat's SEAT_win, then draw (the
// outcome metrics of engine/versus.hpp, named after the seats).
template <class K>
std::span<const std::string_view> seat_wins() {
    static const std::string win[] = {std::string(K::seats[0]) + "_win",
                                      std::string(K::seats[1]) + "_win"};
    static const std::string_view kVersus[] = {win[0], win[1], "draw"};
    return kVersus;
}

// The seats' policies as made from `args`, and how runs name them.
template <class K>
struct Seated {
    MadeSeats<K> made;
    std::string label;
};

// The seats' policies as their table's rows make them, in seat order.
template <class K, std::size_t... i>
MadeSeats<K> made(const Options<K>& o, const std::array<PolicyChoice, sizeof...(i)>& chosen,
                  std::index_sequence<i...>) {
    return {value_of(K::policies)[chosen[i].index].make(o, chosen[i].args)...};
}

// The policies named in `args` ("NAME", or "SEAT=NAME" for two seats), made; a seat whose
// policy needs a fixed opponent (PolicyInfo::needs_fixed_opponent) is solved against the other
// seat's (K::solve_against), and refused in both seats.
template <class K>
Seated<K> seated(const Options<K>& o, const std::vector<std::string>& args) {
    constexpr std::size_t n = seat_count<K>();
    const std::span<const PolicyInfo> infos = registration::infos<K>();
    std::array<PolicyChoice, n> chosen;
    if constexpr (n == 1)
        chosen[0] = pick_policy(K::name, infos, args);
    else
        chosen = pick_seat_policies(K::name, K::seats, infos, args);
    Seated<K> s{made<K>(o, chosen, std::make_index_sequence<n>{}), {}};
    if constexpr (n == 1) {
        s.label = chosen[0].label;
    } else {
        s.label = seats_label(K::seats, chosen);
        const auto needs = [&](std::size_t k) -> const PolicyInfo* {
            const PolicyInfo& info = infos[chosen[k].index];
            return info.needs_fixed_opponent ? &info : nullptr;
        };
        if (needs(0) && needs(1))
            throw UsageError(std::string(K::name) + ": " + std::string(needs(0)->name) +
                             " needs a fixed opponent; give the other seat a policy");
        if constexpr (requires { K::solve_against(o, 0, s.made[0], s.made[1]); })
            for (std::size_t k = 0; k < n; ++k)
                if (needs(k)) K::solve_against(o, k, s.made[k], s.made[1 - k]);
    }
    return s;
}

template <class K>
std::vector<SurvivalSpec> survivals() {
    if constexpr (requires { K::survival_specs(); })
        return K::survival_specs();
    else
        return {K::survival_spec()};
}

// The run's options: K::bind's, else the rules and where every playout starts (the position
// read from `at`, else the opening), else the rules. Positions are read before the policies.
template <class K>
std::unique_ptr<PreparedRun> prepare(const Settings& settings, const std::vector<std::string>& args,
                                     const PositionText* at) {
    const Options<K> o = K::parse_options(settings);
    // (A pair, not a structured binding: clang 14, the web build's, takes no binding into a
    // requires-expression.)
    const auto bound_seated = [&] {
        if constexpr (Binds<K>) {
            Seated<K> seats = seated<K>(o, args);
            auto run = K::bind(o, seats.made, at);
            return std::pair{std::move(run), std::move(seats)};
        } else if constexpr (HasPositions<K>) {
            Start<K> start{o, position_of<K>(o, at)};
            return std::pair{std::move(start), seated<K>(o, args)};
        } else {
            return std::pair{o, seated<K>(o, args)};
        }
    }();
    const auto& bound = bound_seated.first;
    const auto& s = bound_seated.second;
    auto run = std::make_unique<GameRun<Kernel<K>>>(
        bound,
        std::apply([](const auto&... m) { return typename Kernel<K>::Seats{seat_policy<K>(m)...}; },
                   s.made));
    run->game = std::string(K::name);
    if constexpr (Binds<K>) {
        run->scenario = scenario(bound);
        if constexpr (requires { seat_scenario(bound); }) run->seat_scenario = seat_scenario(bound);
    } else {
        run->scenario = scenario(o);
    }
    run->policy = s.label;
    run->metrics = metric_specs(o);
    run->survivals = survivals<K>();
    if constexpr (requires { std::apply(K::chunk_size, s.made); })
        run->chunk_size = std::apply(K::chunk_size, s.made);
    else
        run->chunk_size = kChunkSize;  // sim/runner.hpp's, the one chunk size
    if constexpr (requires { K::warnings(o); }) run->warnings = K::warnings(o);
    return run;
}

// The options' rows for odds list, described once.
template <class K>
std::span<const OptionInfo> option_infos() {
    static const std::vector<OptionInfo> infos = K::option_table().describe();
    return infos;
}

// The settings as the game reads them back: checked (throws UsageError), each name once with
// its value as the option table writes it, in name order.
template <class K>
Settings canonical(const Settings& settings) {
    const Options<K> o = K::parse_options(settings);
    Settings out;
    for (const auto& [name, value] : settings)
        out.emplace_back(name, K::option_table().value_of(name, o));
    std::sort(out.begin(), out.end());
    return out;
}

// The exact report: K::exact's laws under the entry's game, scenario and policies.
template <class K>
ExactReport exact(const Settings& settings, const std::vector<std::string>& args,
                  const PositionText* at) {
    const Options<K> o = K::parse_options(settings);
    const auto report = [&](const Seated<K>& s) {
        ExactReport r{std::string(K::name), scenario(o), s.label, {}, {}, {}};
        if constexpr (requires { K::warnings(o); }) r.warnings = K::warnings(o);
        return r;
    };
    if constexpr (SolvesFrom<K>) {
        const State<K> start = position_of<K>(o, at);
        const Seated<K> s = seated<K>(o, args);
        ExactReport r = report(s);
        K::exact(r, o, s.made, start);
        return r;
    } else {
        const Seated<K> s = seated<K>(o, args);
        ExactReport r = report(s);
        if constexpr (requires { K::exact(r, o, s.made); })
            K::exact(r, o, s.made);
        else
            K::exact(r, o);
        return r;
    }
}

// The shape report: K::shape's measures under the entry's game, scenario and policies.
template <class K>
ShapeReport shape(const Settings& settings, const std::vector<std::string>& args,
                  const shape::Config& cfg, shape::Sampler& games) {
    const Options<K> o = K::parse_options(settings);
    const Seated<K> s = seated<K>(o, args);
    ShapeReport r{std::string(K::name), scenario(o), s.label, {}, {}, {}};
    games.name(r.scenario, r.policy);  // the shards' job
    K::shape(r, o, s.made, cfg, games);
    return r;
}

}  // namespace registration

// The registry entry of the game whose kernel K describes: `e` (title, summary, rules version,
// versus, exact limits, search) with K's name, seats, option infos, headline and ladder, policies
// and functions.
template <class K>
GameEntry entry_of(GameEntry e) {
    namespace r = registration;
    static_assert(r::Game<K>, "sim/register_game.hpp: the game's contract");
    e.name = K::name;
    e.options = r::option_infos<K>();
    e.canonical = r::canonical<K>;
    if constexpr (requires { K::headline; }) e.headline = K::headline;
    if constexpr (requires { K::ladder; }) e.ladder = K::ladder;
    if constexpr (r::seat_count<K>() == 2) {
        e.seats = K::seats;
        if (e.versus.empty()) e.versus = r::seat_wins<K>();
    }
    e.policies = r::infos<K>();
    e.prepare = [](const Settings& s, const std::vector<std::string>& p) {
        return r::prepare<K>(s, p, nullptr);
    };
    if constexpr (r::HasPositions<K>) {
        e.opening_position = [](const Settings& s) {
            const r::Options<K> o = K::parse_options(s);
            return write_position(opening(o), o);
        };
        e.prepare_from = [](const Settings& s, const std::vector<std::string>& p,
                            std::string_view text, std::string_view file) {
            const PositionText at{text, file};
            return r::prepare<K>(s, p, &at);
        };
    }
    if constexpr (r::Solves<K> || r::SolvesFrom<K>)
        e.exact = [](const Settings& s, const std::vector<std::string>& p) {
            return r::exact<K>(s, p, nullptr);
        };
    if constexpr (r::Shapes<K>) e.shape = r::shape<K>;
    if constexpr (r::SolvesFrom<K>)
        e.exact_from = [](const Settings& s, const std::vector<std::string>& p,
                          std::string_view text, std::string_view file) {
            const PositionText at{text, file};
            return r::exact<K>(s, p, &at);
        };
    return e;
}

}  // namespace odds
