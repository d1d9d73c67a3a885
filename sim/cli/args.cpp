#include "sim/cli/args.hpp"

#include <algorithm>
#include <string>
#include <thread>
#include <type_traits>
#include <variant>

#include "sim/shard_file.hpp"

namespace odds::cli {

namespace {
constexpr std::uint64_t kMaxShards = 1'000'000;

// Every option's field in Args, by its declared long name: what args_of reads.
using Field = std::variant<Value Args::*, std::vector<std::string> Args::*, bool Args::*>;
struct Binding {
    std::string_view name;
    Field field;
};
const Binding kBindings[] = {
    {"game", &Args::game},
    {"file", &Args::files},
    {"dir", &Args::files},
    {"set", &Args::set},
    {"policy", &Args::policy},
    {"fixed", &Args::fixed},
    {"variant", &Args::variant},
    {"vary", &Args::vary},
    {"target", &Args::target},
    {"tolerance", &Args::tolerance},
    {"restrict", &Args::restrict},
    {"rules", &Args::rules},
    {"state", &Args::state},
    {"out", &Args::out},
    {"format", &Args::format},
    {"playouts", &Args::playouts},
    {"seed", &Args::seed},
    {"threads", &Args::threads},
    {"shard", &Args::shard},
    {"rank-by", &Args::rank_by},
    {"metrics", &Args::metrics},
    {"metric", &Args::metric},
    {"search", &Args::search},
    {"budgets", &Args::budgets},
    {"budget", &Args::budget},
    {"rollouts", &Args::rollouts},
    {"estimator", &Args::estimator},
    {"seat", &Args::seat},
    {"play", &Args::play},
    {"opponent", &Args::opponent},
    {"trial-playouts", &Args::trial_playouts},
    {"finalists", &Args::finalists},
    {"explore", &Args::explore},
    {"neighbours", &Args::neighbours},
    {"deviations", &Args::deviations},
    {"junit", &Args::junit},
    {"false-alarm", &Args::false_alarm},
    {"miss", &Args::miss},
    {"max-playouts", &Args::max_playouts},
    {"no-progress", &Args::no_progress},
    {"dry-run", &Args::dry_run},
    {"report", &Args::report},
    {"exact", &Args::exact},
    {"no-exact", &Args::no_exact},
    {"sequential", &Args::sequential},
    {"update", &Args::update},
};

// The binding of the option called `name`, or null.
const Binding* binding(std::string_view name) {
    for (const auto& b : kBindings)
        if (b.name == name) return &b;
    return nullptr;
}

template <class T>
std::optional<T> typed(const Value& v, T (*parse)(const std::string&)) {
    if (!v) return std::nullopt;
    return parse(*v);
}
}  // namespace

bool bound(std::string_view option) {
    return option == "help" || option == "json" || binding(option) != nullptr;
}

void set_arg(Args& a, std::string_view name, std::string value, bool defaulted) {
    if (name == "json") {  // odds list's flag, or odds check's --json FILE
        if (value.empty())
            a.json = true;
        else
            a.json_file = Value{std::move(value), defaulted};
        return;
    }
    const Binding* b = binding(name);
    if (!b) throw std::logic_error("option --" + std::string(name) + " is bound to no field");
    std::visit(
        [&](auto field) {
            using F = std::remove_cvref_t<decltype(a.*field)>;
            if constexpr (std::is_same_v<F, bool>)
                a.*field = true;
            else if constexpr (std::is_same_v<F, Value>)
                a.*field = Value{std::move(value), defaulted};
            else
                (a.*field).push_back(std::move(value));
        },
        b->field);
}

bool is_list(std::string_view option) {
    const Binding* b = binding(option);
    return b && std::holds_alternative<std::vector<std::string> Args::*>(b->field);
}

bool is_flag(std::string_view option) {
    const Binding* b = binding(option);
    return option == "json" || (b && std::holds_alternative<bool Args::*>(b->field));
}

Args args_of(const po::variables_map& vm) {
    Args a;
    std::vector<Given> given;  // name order: the map's
    for (const auto& [name, v] : vm) {
        if (name == "help") continue;
        const boost::any& x = v.value();
        Given g{name, {}, false};
        if (const auto* list = boost::any_cast<std::vector<std::string>>(&x)) {
            g.values = *list;
            g.list = true;
        } else if (const auto* s = boost::any_cast<std::string>(&x); s && !s->empty()) {
            g.values = {*s};
        } else if (!s && !x.empty()) {  // Boost stores a flag (--report) as "" or nothing
            throw std::logic_error("option --" + name + " is neither text nor a flag");
        }
        for (const auto& value : g.values) set_arg(a, name, value, v.defaulted());
        if (g.values.empty() && !g.list) set_arg(a, name, "");
        if (!v.defaulted()) given.push_back(std::move(g));
    }
    a.command_line = canonical_args(given, a, vm.count("file") > 0);
    return a;
}

RunArgs run_args_of(const Args& a) {
    RunArgs r;
    r.playouts = typed(a.playouts, parse_playouts);
    r.seed = typed(a.seed, parse_seed);
    r.threads =
        typed(a.threads, parse_threads)
            .value_or(std::clamp(std::thread::hardware_concurrency(), 1u, unsigned{kMaxThreads}));
    r.no_progress = a.no_progress;
    r.dry_run = a.dry_run;
    r.shard = typed(a.shard, parse_shard);
    if (a.out) r.out = *a.out;
    r.command_line = a.command_line;
    r.sharing = a.sharing;
    return r;
}

RunArgs run_args_of(const Args& a, std::uint64_t default_playouts) {
    RunArgs r = run_args_of(a);
    if (!r.playouts) r.playouts = default_playouts;
    return r;
}

bool RunArgs::progress() const {
    return !no_progress && !shard && ProgressBar::stderr_is_terminal();
}

RunConfig RunArgs::config() const {
    RunConfig cfg;
    cfg.playouts = playouts.value_or(0);
    cfg.seed = seed.value_or(0);
    cfg.threads = threads;
    return cfg;
}

Plan RunArgs::plan(std::string_view command, const GameEntry& game,
                   std::vector<ShardJob> jobs) const {
    Plan p;
    p.command = std::string(command);
    p.game = std::string(game.name);
    p.rules_version = std::string(game.rules_version);
    p.seed = seed.value_or(0);
    p.playouts = playouts.value_or(0);
    p.jobs = std::move(jobs);
    p.args = command_line;
    p.out = out;
    p.shard_bar = shard && !no_progress;
    return p;
}

std::vector<std::string> canonical_args(const std::vector<Given>& given, const Args& opt,
                                        bool files) {
    std::vector<std::string> args;
    if (opt.game) args.push_back(*opt.game);
    if (files)  // odds check's FILE..., odds report's DIR (merge's DIRs: not recorded)
        args.insert(args.end(), opt.files.begin(), opt.files.end());
    // A game's rule options, from --rules FILE and --set alike, as the game reads them back
    // and in name order, where --set sorts among the options (issue 40): the same variant
    // given as a file or as --set, or spelt 0120 or 120, is recorded alike.
    std::vector<std::string> sets;
    if (opt.game && (!opt.set.empty() || opt.rules))
        for (const auto& [n, v] : canonical_settings(opt)) sets.push_back("--set=" + n + "=" + v);
    const bool game_settings = opt.game.given();
    bool sets_placed = false;
    for (const auto& [name, values, list] : given) {
        if (name == "game" || name == "file" || name == "shard" || name == "out" ||
            name == "threads" || name == "no-progress" || name == "dry-run" || name == "help")
            continue;
        if (game_settings && (name == "rules" || name == "set")) continue;
        if (!sets_placed && name > "set") {
            args.insert(args.end(), sets.begin(), sets.end());
            sets_placed = true;
        }
        if (list)
            for (const auto& x : values) args.push_back("--" + name + "=" + x);
        else if (values.empty())
            args.push_back("--" + name);  // a flag (--report)
        else                              // 1M and 1000000 alike
            args.push_back("--" + name + "=" +
                           (name == "playouts" ? std::to_string(parse_playouts(values[0]))
                            : name == "seed"   ? std::to_string(parse_seed(values[0]))
                                               : values[0]));
    }
    if (!sets_placed) args.insert(args.end(), sets.begin(), sets.end());
    return args;
}

void check_one_line(const std::vector<std::string>& args) {
    for (const auto& a : args)
        if (a.find('\n') != std::string::npos)
            throw UsageError("an argument holds a line break; a shard cannot record it");
}

ShardIndex parse_shard(const std::string& text) {
    const auto slash = text.find('/');
    const auto i = slash == std::string::npos ? std::nullopt : to_u64(text.substr(0, slash));
    const auto n = slash == std::string::npos ? std::nullopt : to_u64(text.substr(slash + 1));
    if (!i || !n || *i < 1 || *i > *n || *n > kMaxShards)
        throw UsageError("--shard '" + text +
                         "' is not valid; give I/N, shard I of N, with 1 <= I <= N <= 1000000 "
                         "(such as 1/4)");
    return {*i, *n, text};
}

void announce_queued(const RunArgs& a, Io io, const std::string& who, const std::string& what,
                     unsigned threads) {
    if (a.progress()) return;  // the bar says it
    if (a.sharing.executor && a.sharing.executor->mode() == Executor::Mode::merge)
        return;           // nothing is played
    if (a.shard) return;  // the shard says what it plays (sim/executor.cpp)
    io.err << who << ": " << what << " queued on " << threads
           << (threads == 1 ? " thread" : " threads")
           << (a.sharing.team ? " on each of " + std::to_string(a.sharing.team->size) + " MPI ranks"
                              : "")
           << std::endl;
}

}  // namespace odds::cli
