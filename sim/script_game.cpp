#include "sim/script_game.hpp"

#include <algorithm>
#include <array>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "engine/line_reader.hpp"
#include "engine/script.hpp"
#include "engine/script_position.hpp"
#include "engine/stop.hpp"
#include "engine/text.hpp"
#include "policies/mcts.hpp"
#include "policies/policy_table.hpp"
#include "reports/csv.hpp"
#include "sim/shape_run.hpp"

namespace odds {

namespace {

using script::Declared;

// Each worker thread's Lua state of a script: made on its first chunk, kept while the thread
// lives (a run's workers end with the run).
script::Machine& machine_for(const std::shared_ptr<const Declared>& d) {
    thread_local std::map<std::shared_ptr<const Declared>, std::unique_ptr<script::Machine>> mine;
    auto& m = mine[d];
    if (!m) m = std::make_unique<script::Machine>(d);
    return *m;
}

// A metric's value from result(s, o) within its declared range (else UsageError).
void check_range(const Declared& d, const MetricSpec& m, std::int32_t value) {
    if (value < m.lo || value > m.hi)
        throw UsageError(d.path + ": result(s, o) gave metric '" + m.name + "' the value " +
                         std::to_string(value) + ", outside its declared range " +
                         std::to_string(m.lo) + ".." + std::to_string(m.hi));
}

class ScriptRun final : public PreparedRun {
public:
    // start: the state's bytes every game plays on from (a position), or empty: a fresh game.
    ScriptRun(std::shared_ptr<const Declared> d, script::Values values,
              std::vector<script::Seat> seats, std::string start = {})
        : d_(std::move(d)),
          values_(std::move(values)),
          seats_(std::move(seats)),
          start_(std::move(start)) {}

    RunResult run(const RunConfig& cfg, const RunControl& ctl) const override {
        const Tally empty(metrics, survivals);
        const auto play_chunk = [&](Dice& dice, std::uint64_t, std::uint64_t n, Tally& tally) {
            script::Machine& m = machine_for(d_);
            std::int32_t values[kMaxMetrics];
            for (std::uint64_t i = 0; i < n; ++i) {
                if (ctl.stop && ctl.stop->load(std::memory_order_relaxed)) [[unlikely]]
                    throw StopRequested{};
                play(m, dice, values);
                tally.add(values);
            }
        };
        return run_chunks(cfg, empty, play_chunk, ctl);
    }

    void play_each(std::uint64_t seed, std::uint64_t first, std::uint64_t n,
                   std::int32_t* out) const override {
        script::Machine& m = machine_for(d_);
        const std::size_t stride = metrics.size();
        std::int32_t values[kMaxMetrics];
        for (std::uint64_t i = 0; i < n; ++i) {
            throw_if_stop_requested();
            Dice dice(stream_seed(seed, first + i));
            play(m, dice, values);
            std::copy(values, values + stride, out + i * stride);
        }
    }

private:
    // One game, its metrics checked against their declared ranges.
    void play(script::Machine& m, Dice& dice, std::int32_t* values) const {
        m.play(values_, dice, seats_, values, start_);
        for (std::size_t k = 0; k < metrics.size(); ++k) check_range(*d_, metrics[k], values[k]);
    }

    std::shared_ptr<const Declared> d_;
    script::Values values_;
    std::vector<script::Seat> seats_;
    std::string start_;
};

inline constexpr std::uint32_t kSearchChunk = 16;  // games a chunk where a seat searches
// The exact solve a command asks beside its plays (GameEntry::exact_beside): a twentieth of odds
// exact's work, about 2 s on this machine, before the command plays without it.
inline constexpr std::uint64_t kBesideWork = script::kMaxExactWork / 20;

// A script's policies as the CLI shows and parses them (policies/policy_table.hpp): its rules of
// thumb, random, and the searches with their parameters (rollout:N, mcts:N:C).
inline constexpr PolicyParam kRolloutParams[] = {
    {"N", "simulations per choice", 1, script::kMostRollouts, script::kRolloutDefault}};
inline constexpr PolicyParam kMctsParams[] = {mcts_iterations_param(), mcts_c_param()};
std::vector<PolicyInfo> policy_infos(const Declared& d) {
    std::vector<PolicyInfo> out;
    for (const auto& p : d.policies) {
        std::span<const PolicyParam> params;
        if (p.kind == script::ScriptPolicy::Kind::rollout) params = kRolloutParams;
        if (p.kind == script::ScriptPolicy::Kind::mcts) params = kMctsParams;
        out.push_back({p.name, p.help, params, false});
    }
    return out;
}

// The seats' policies from --policy: NAME for every seat, or SEAT=NAME; the first declared
// policy where none is given. `game`: the script's name as given.
std::vector<script::Seat> seated(const Declared& d, const std::string& game,
                                 const std::vector<std::string>& args, std::string& label) {
    const std::vector<PolicyInfo> infos = policy_infos(d);
    const auto seat = [](const PolicyChoice& c) {
        return script::Seat{static_cast<int>(c.index), c.args[0],
                            static_cast<double>(c.args[1]) / 100};
    };
    if (d.seats.empty()) {
        const PolicyChoice c = pick_policy(game, infos, args);
        label = c.label;
        return {seat(c)};
    }
    const std::array<std::string_view, 2> names{d.seats[0], d.seats[1]};
    const auto chosen = pick_seat_policies(game, names, infos, args);
    label = seats_label(names, chosen);
    return {seat(chosen[0]), seat(chosen[1])};
}

// odds exact on a script: every roll enumerated (script::Machine::solve), each metric's law
// checked against its declared range.
// start: a position's state bytes, or empty: a fresh game.
// max_work: kMaxExactWork for odds exact, kBesideWork beside a command's plays.
ExactReport solve(const std::shared_ptr<const Declared>& d, const std::string& game,
                  const Settings& s, const std::vector<std::string>& p,
                  const std::string& start = {}, std::uint64_t max_work = script::kMaxExactWork) {
    const script::Values values = script::parse_values(*d, s);
    ExactReport r;
    const std::vector<script::Seat> seats = seated(*d, game, p, r.policy);
    r.game = game;
    r.scenario = script::scenario(*d, values);
    script::Machine& m = machine_for(d);
    const auto specs = m.metric_specs(values);
    const script::Solution solved =
        m.solve(values, seats, script::kMaxExactStates, max_work, start);
    for (std::size_t k = 0; k < specs.size(); ++k) {
        Distribution law{
            specs[k], std::vector<double>(static_cast<std::size_t>(specs[k].hi - specs[k].lo) + 1),
            solved.unresolved};
        for (const auto& [value, probability] : solved.laws[k]) {
            check_range(*d, specs[k], value);
            law.mass[static_cast<std::size_t>(value - specs[k].lo)] += probability;
        }
        r.laws.push_back(std::move(law));
    }
    r.notes.push_back(
        "every roll of every step enumerated for these policies: " + std::to_string(solved.states) +
        " states over " + std::to_string(solved.steps) + " steps, " + std::to_string(solved.rolls) +
        " roll outcomes taken");
    if (solved.unresolved > kNegligible)
        r.notes.push_back("games still playing after max_steps = " + std::to_string(d->max_steps) +
                          " steps are unresolved mass (" + format_double(solved.unresolved) +
                          "): the laws are bounds");
    return r;
}

// odds shape on a script: p_t by rollouts of the seats' own policies (a script has no value
// table), game i on Dice(stream_seed(seed, i)) as the runner plays it.
ShapeReport shape_of(const std::shared_ptr<const Declared>& d, const std::string& game,
                     const Settings& s, const std::vector<std::string>& p, const shape::Config& cfg,
                     shape::Sampler& games) {
    const script::Values values = script::parse_values(*d, s);
    ShapeReport r{game, script::scenario(*d, values), {}, {}, {}, {}, false};
    const std::vector<script::Seat> seats = seated(*d, game, p, r.policy);
    games.name(r.scenario, r.policy);
    shape::refuse_exact(cfg, game, "a script is estimated by rollouts");
    shape::Tally empty;
    empty.solo = d->seats.empty();
    empty.rollouts = cfg.rollouts;
    r.estimator = shape::rollout_estimator(cfg);
    auto traced =
        shape::run_traces(cfg, games, empty, [&](std::uint64_t i, std::vector<double>& out) {
            Dice dice(stream_seed(cfg.seed, i));
            machine_for(d).trace(
                values, dice, seats, cfg.rollouts,
                [&](std::size_t t) { return shape::rollout_seed(cfg.seed, i, t); }, out);
        });
    r.tally = std::move(traced.tally);
    r.partial = traced.partial;
    return r;
}

// odds exact on the script's entry, unless it says exact = false (then why not).
void add_exact(GameEntry& g, const std::shared_ptr<const Declared>& d, const std::string& game) {
    if (d->exact) {
        g.exact = [d, game](const Settings& s, const std::vector<std::string>& p) {
            return solve(d, game, s, p);
        };
        g.exact_from = [d, game](const Settings& s, const std::vector<std::string>& p,
                                 std::string_view text, std::string_view file) {
            return solve(d, game, s, p, script::position_bytes(text, file));
        };
        g.exact_beside = [d, game](const Settings& s, const std::vector<std::string>& p) {
            return solve(d, game, s, p, {}, kBesideWork);
        };
        g.exact_limits = "every roll of every step enumerated: at most " +
                         std::to_string(script::kMaxExactStates / 1'000'000) + " million states";
    } else {
        g.no_exact = d->path +
                     " says exact = false: its states are too many to enumerate (odds "
                     "run samples it)";
    }
}

// A script's entry with the text its views point into.
struct ScriptEntry {
    std::shared_ptr<const Declared> d;
    std::string name, rules_version;
    std::vector<OptionInfo> options;
    std::vector<PolicyInfo> policies;
    std::vector<std::string> versus_words;
    std::vector<std::string_view> seats, headline, versus, ladder;
    GameEntry entry;
};

OptionInfo option_info(const script::ScriptOption& o) {
    OptionInfo i;
    i.name = o.name;
    i.default_value = o.default_text;
    i.ruling = o.ruling;
    switch (o.type) {
        case script::OptionType::integer:
            i.kind = OptionKind::integer;
            i.min = o.min, i.max = o.max;
            i.values = std::to_string(o.min) + ".." + std::to_string(o.max);
            break;
        case script::OptionType::boolean:
            i.kind = OptionKind::boolean;
            i.values = "true or false";
            break;
        case script::OptionType::dice:
            i.kind = OptionKind::dice;
            i.values = "dice (2d6, 3d6kh2, d6+1...)";
            break;
        case script::OptionType::faces:
            i.kind = OptionKind::faces;
            i.values = faces_takes(o.sides);
            i.comma_list = true;
            break;
        case script::OptionType::restrict:
            i.kind = OptionKind::text;
            i.words = o.words;
            i.comma_list = true;
            i.values = "none, or comma-separated: " + joined(o.words, ", ");
            break;
        case script::OptionType::choice:
            i.kind = OptionKind::choice;
            i.words = o.words;
            i.values = joined(o.words, " or ");
            break;
    }
    i.help = o.help + " (" + i.values + (o.ruling.empty() ? "" : "; " + o.ruling) + ")";
    return i;
}

// The entry of script `d`, named `game` (its path, or for a game of the engine its declared name).
std::unique_ptr<ScriptEntry> make_entry(std::shared_ptr<const Declared> d, std::string game) {
    auto e = std::make_unique<ScriptEntry>();
    e->d = d;
    e->name = std::move(game);
    e->rules_version = e->name + "/" + std::to_string(d->version);
    for (const auto& o : d->options) e->options.push_back(option_info(o));
    e->policies = policy_infos(*d);
    for (const auto& s : d->seats) e->seats.emplace_back(s);
    for (const auto& h : d->headline) e->headline.emplace_back(h);
    e->versus_words = d->versus;  // two seats: SEAT_win, SEAT_win, draw unless declared
    for (const auto& v : e->versus_words) e->versus.emplace_back(v);
    GameEntry& g = e->entry;
    g.name = e->name;
    g.title = d->title;
    g.summary = d->summary;
    g.options = e->options;
    g.policies = e->policies;
    g.seats = e->seats;
    g.rules_version = e->rules_version;
    g.headline = e->headline;
    g.versus = e->versus;
    // odds skill: the script's ladder (Declared::ladder), then mcts at each budget.
    for (const auto& name : d->ladder) e->ladder.emplace_back(name);
    g.ladder = e->ladder;
    g.search = "mcts:{n}";
    const auto prepare = [d, game = e->name](const Settings& s, const std::vector<std::string>& p,
                                             std::string start) {
        script::Values values = script::parse_values(*d, s);
        std::string label;
        std::vector<script::Seat> seats = seated(*d, game, p, label);
        const bool searches = script::searches(d->policies, seats);
        auto run = std::make_unique<ScriptRun>(d, values, std::move(seats), std::move(start));
        run->game = game;
        run->scenario = script::scenario(*d, values);
        run->policy = label;
        run->metrics = machine_for(d).metric_specs(values);
        // A search's games are slow (each choice simulates the game on): small chunks, so that
        // every thread has some and the progress moves.
        if (searches) run->chunk_size = kSearchChunk;
        return std::unique_ptr<PreparedRun>(std::move(run));
    };
    g.prepare = [prepare](const Settings& s, const std::vector<std::string>& p) {
        return prepare(s, p, {});
    };
    // Positions (docs/positions.md): the state as text (engine/script_position.hpp).
    g.opening_position = [d](const Settings& s) {
        return script::position_text(machine_for(d).opening_state(script::parse_values(*d, s)),
                                     d->path);
    };
    g.prepare_from = [prepare](const Settings& s, const std::vector<std::string>& p,
                               std::string_view text, std::string_view file) {
        return prepare(s, p, script::position_bytes(text, file));
    };
    add_exact(g, d, e->name);
    g.shape = [d, game = e->name](const Settings& s, const std::vector<std::string>& p,
                                  const shape::Config& cfg, shape::Sampler& games) {
        return shape_of(d, game, s, p, cfg, games);
    };
    g.canonical = [d](const Settings& s) {
        const script::Values values = script::parse_values(*d, s);
        Settings out;
        for (const auto& [name, value] : s)
            for (std::size_t i = 0; i < d->options.size(); ++i)
                if (d->options[i].name == name)
                    out.emplace_back(name, script::value_text(*d, values, i));
        std::sort(out.begin(), out.end());
        return out;
    };
    return e;
}

// The engine's scripts as built (scripts/embed-scripts.cmake): path and text.
struct Embedded {
    const char* path;
    const char* source;
};
#define ODDS_SCRIPT(path, source) Embedded{path, source},
constexpr Embedded kEmbedded[] = {
#include "sim/engine_scripts.inc"
};
#undef ODDS_SCRIPT

}  // namespace

std::span<const GameEntry* const> scripted_games() {
    static const auto entries = [] {
        std::vector<std::unique_ptr<ScriptEntry>> kept;
        for (const Embedded& s : kEmbedded) {
            auto d = script::load(s.path, s.source);
            const auto kernels = games();
            if (std::any_of(kernels.begin(), kernels.end(),
                            [&](const GameEntry& g) { return g.name == d->name; }))
                continue;  // a kernel's rules as a script: the kernel is the game
            auto e = make_entry(d, d->name);
            validate(e->entry);
            kept.push_back(std::move(e));
        }
        return kept;
    }();
    static const auto pointers = [] {
        std::vector<const GameEntry*> p;
        for (const auto& e : entries) p.push_back(&e->entry);
        return p;
    }();
    return pointers;
}

const GameEntry& script_game(std::string_view path) {
    // Loaded once a text: the same path written again (a designer's next try, a test's next
    // script) is loaded again; entries handed out earlier stay valid.
    static std::mutex mu;
    static std::map<std::pair<std::string, std::string>, std::unique_ptr<ScriptEntry>> loaded;
    std::lock_guard lock(mu);
    const std::string name(path);
    std::string source =
        read_input_file(name, "the game script", script::kMaxScriptFile, script::kMaxScriptLine);
    if (const auto it = loaded.find({name, source}); it != loaded.end()) return it->second->entry;
    auto e = make_entry(script::load(name, source), name);
    try {
        validate(e->entry);
    } catch (const std::logic_error& bad) {  // a registration mistake: the script's, here
        throw UsageError(std::string(path) + ": " + bad.what());
    }
    return loaded.emplace(std::pair{name, std::move(source)}, std::move(e)).first->second->entry;
}

}  // namespace odds
