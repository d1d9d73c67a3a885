// A game's registration from the traits of its kernel. engine/GAME/register.cpp describes the
// kernel once, as a struct K of static members, and entry_of<K>(text) builds the registry entry
// (sim/registry.hpp) from it and the entry's text (title, summary, options, rules version,
// headline...): prepare, and where K has them, positions and the exact solver.
// docs/adding-a-game.md walks through it.
//
// What K has (the kernel's own functions, most as `static constexpr auto f = game::f;`):
//   name                            "fpb", as typed: odds run NAME
//   seats                           two-seat games: std::array of the seats' names ({"a", "b"})
//   Options, parse_options          the rule options and their parser (throws UsageError)
//   policies, policy_infos          the policy table (policies/policy_table.hpp) and its infos,
//                                   each an array or a function returning one
//   scenario, metric_specs          of the Options
//   survival_spec or survival_specs the survival table(s)
//   play                            one playout from the start, writing the metrics:
//                                     play(const Options&, D& dice, std::int32_t* metrics, P&...)
//                                   with positions: play(const State& start, const Options&, ...)
//   warnings (optional)             std::vector<std::string> of the Options, printed on stderr
//   chunk_size (optional)           of the seats' policies (else kChunkSize)
//   solve_against (optional)        (Options, seat, Policy& mine, const Policy& other): makes a
//                                   seat whose policy needs a fixed opponent play against it
// Positions (docs/positions.md), optional:
//   State, opening(Options)         where a fresh game starts: every playout copies it
//   read_position(text, file, Options), write_position(State[, Options])
// The exact solver, optional: exact(ExactReport&, Options, seats[, State]) fills the laws (and
// notes, survival) of the report entry_of names; with a State it also solves from positions.
// A run whose options depend on the seats' policies (msc: each side's plan), optional:
//   Run, bind(Options, seats, const PositionText*): the run's options, the position read there;
//   then play(const Run&, D&, metrics, P&...), scenario(const Run&), seat_scenario(const Run&),
//   and seat(made policy) the kernel's policy of a seat.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "policies/policy_table.hpp"
#include "sim/game_run.hpp"
#include "sim/registry.hpp"

namespace odds {

// A position as --state gives it: the text and the file it came from, for messages.
struct PositionText {
    std::string_view text, file;
};

namespace registration {

// What a seed plays depends on the chunk size (chunk k rolls stream_seed(seed, k)): changing a
// game's changes its rules version. 256: a 1,000-game run is four chunks, two threads busy.
inline constexpr std::uint32_t kChunkSize = 256;

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
using Options = typename K::Options;
// What a row of K's policy table makes.
template <class K>
using Made = std::remove_cvref_t<decltype(value_of(K::policies)[0].make(
    std::declval<const Options<K>&>(), PolicyArgs{}))>;
template <class K>
using MadeSeats = std::array<Made<K>, seat_count<K>()>;

template <class K>
concept Binds = requires {
    typename K::Run;
};
template <class K>
concept HasPositions = requires {
    typename K::State;
};
template <class K>
concept Solves = requires(ExactReport& r, const Options<K>& o, const MadeSeats<K>& s) {
    K::exact(r, o, s);
};
template <class K>
concept SolvesFrom = HasPositions<K> &&
    requires(ExactReport& r, const Options<K>& o, const MadeSeats<K>& s,
             const typename K::State& start) {
    K::exact(r, o, s, start);
};

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
    typename K::State start;
};
template <class K>
struct RunOf {
    using type = Options<K>;
};
template <class K>
requires HasPositions<K> &&(!Binds<K>)struct RunOf<K> {
    using type = Start<K>;
};
template <class K>
requires Binds<K>
struct RunOf<K> {
    using type = typename K::Run;
};

// K's kernel as sim/game_run.hpp binds it.
template <class K>
struct Kernel {
    using Options = typename RunOf<K>::type;
    using Policy = decltype(seat_policy<K>(std::declval<const Made<K>&>()));
    using Seats =
        std::conditional_t<seat_count<K>() == 1, std::tuple<Policy>, std::tuple<Policy, Policy>>;
    template <class D, class... P>
    static void play(const Options& o, D& dice, std::int32_t* metrics, P&... policies) {
        if constexpr (HasPositions<K> && !Binds<K>)
            K::play(o.start, o.rules, dice, metrics, policies...);
        else
            K::play(o, dice, metrics, policies...);
    }
};

// The seats' policies as made from `args`, and how runs name them.
template <class K>
struct Seated {
    MadeSeats<K> made;
    std::string label;
};

// The policies named in `args` ("NAME", or "SEAT=NAME" for two seats), made; a seat whose
// policy needs a fixed opponent (PolicyInfo::needs_fixed_opponent) is solved against the other
// seat's (K::solve_against), and refused in both seats.
template <class K>
Seated<K> seated(const Options<K>& o, const std::vector<std::string>& args) {
    constexpr std::size_t n = seat_count<K>();
    const std::span<const PolicyInfo> infos = value_of(K::policy_infos);
    std::array<PolicyChoice, n> chosen;
    if constexpr (n == 1)
        chosen[0] = pick_policy(K::name, infos, args);
    else
        chosen = pick_seat_policies(K::name, K::seats, infos, args);
    Seated<K> s{[&]<std::size_t... i>(std::index_sequence<i...>){
        return MadeSeats<K>{value_of(K::policies)[chosen[i].index].make(o, chosen[i].args)...};
}
(std::make_index_sequence<n>{}), {}
};  // namespace registration
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
}  // namespace odds

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
    const auto [bound, s] = [&] {
        if constexpr (Binds<K>) {
            Seated<K> seats = seated<K>(o, args);
            typename K::Run run = K::bind(o, seats.made, at);
            return std::pair{std::move(run), std::move(seats)};
        } else if constexpr (HasPositions<K>) {
            Start<K> start{o, at ? K::read_position(at->text, at->file, o) : K::opening(o)};
            return std::pair{std::move(start), seated<K>(o, args)};
        } else {
            return std::pair{o, seated<K>(o, args)};
        }
    }();
    auto run = std::make_unique<GameRun<Kernel<K>>>(
        bound,
        std::apply([](const auto&... m) { return typename Kernel<K>::Seats{seat_policy<K>(m)...}; },
                   s.made));
    run->game = std::string(K::name);
    if constexpr (Binds<K>) {
        run->scenario = K::scenario(bound);
        if constexpr (requires { K::seat_scenario(bound); })
            run->seat_scenario = K::seat_scenario(bound);
    } else {
        run->scenario = K::scenario(o);
    }
    run->policy = s.label;
    run->metrics = K::metric_specs(o);
    run->survivals = survivals<K>();
    if constexpr (requires { std::apply(K::chunk_size, s.made); })
        run->chunk_size = std::apply(K::chunk_size, s.made);
    else
        run->chunk_size = kChunkSize;
    if constexpr (requires { K::warnings(o); }) run->warnings = K::warnings(o);
    return run;
}

// The exact report: K::exact's laws under the entry's game, scenario and policies.
template <class K>
ExactReport exact(const Settings& settings, const std::vector<std::string>& args,
                  const PositionText* at) {
    const Options<K> o = K::parse_options(settings);
    const auto report = [&](const Seated<K>& s) {
        ExactReport r{std::string(K::name), K::scenario(o), s.label, {}, {}, {}};
        if constexpr (requires { K::warnings(o); }) r.warnings = K::warnings(o);
        return r;
    };
    if constexpr (SolvesFrom<K>) {
        const typename K::State start =
            at ? K::read_position(at->text, at->file, o) : K::opening(o);
        const Seated<K> s = seated<K>(o, args);
        ExactReport r = report(s);
        K::exact(r, o, s.made, start);
        return r;
    } else {
        const Seated<K> s = seated<K>(o, args);
        ExactReport r = report(s);
        K::exact(r, o, s.made);
        return r;
    }
}

}  // namespace registration

// The registry entry of the game whose kernel K describes: `e` (title, summary, options,
// rules version, headline, versus, exact limits) with K's name, seats, policies and functions.
template <class K>
GameEntry entry_of(GameEntry e) {
    namespace r = registration;
    e.name = K::name;
    if constexpr (r::seat_count<K>() == 2) e.seats = K::seats;
    e.policies = r::value_of(K::policy_infos);
    e.prepare = [](const Settings& s, const std::vector<std::string>& p) {
        return r::prepare<K>(s, p, nullptr);
    };
    if constexpr (r::HasPositions<K>) {
        e.opening_position = [](const Settings& s) {
            const r::Options<K> o = K::parse_options(s);
            if constexpr (requires { K::write_position(K::opening(o), o); })
                return K::write_position(K::opening(o), o);
            else
                return K::write_position(K::opening(o));
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
    if constexpr (r::SolvesFrom<K>)
        e.exact_from = [](const Settings& s, const std::vector<std::string>& p,
                          std::string_view text, std::string_view file) {
            const PositionText at{text, file};
            return r::exact<K>(s, p, &at);
        };
    return e;
}

}  // namespace odds
