#include "sim/cli/args.hpp"

#include <algorithm>
#include <string>
#include <thread>

#include "sim/shard_file.hpp"

namespace odds::cli {

namespace {
constexpr std::uint64_t kMaxShards = 1'000'000;

template <class T>
std::optional<T> given(const po::variables_map& vm, const char* name,
                       T (*parse)(const std::string&)) {
    if (!vm.count(name)) return std::nullopt;
    return parse(vm[name].as<std::string>());
}
}  // namespace

RunArgs run_args_of(const po::variables_map& vm) {
    RunArgs a;
    a.playouts = given(vm, "playouts", parse_playouts);
    a.seed = given(vm, "seed", parse_seed);
    a.threads =
        given(vm, "threads", parse_threads)
            .value_or(std::clamp(std::thread::hardware_concurrency(), 1u, unsigned{kMaxThreads}));
    a.no_progress = vm.count("no-progress") > 0;
    a.shard = given(vm, "shard", parse_shard);
    if (vm.count("out")) a.out = vm["out"].as<std::string>();
    a.command_line = canonical_args(vm);
    return a;
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

std::vector<std::string> canonical_args(const po::variables_map& vm) {
    std::vector<std::string> args;
    if (vm.count("game")) args.push_back(vm["game"].as<std::string>());
    if (vm.count("file")) {  // odds check's FILE..., odds report's DIR
        if (const auto* files = boost::any_cast<std::vector<std::string>>(&vm["file"].value()))
            args.insert(args.end(), files->begin(), files->end());
        else
            args.push_back(vm["file"].as<std::string>());
    }
    // A game's rule options, from --rules FILE and --set alike, as the game reads them back
    // and in name order, where --set sorts among the options (issue 40): the same variant
    // given as a file or as --set, or spelt 0120 or 120, is recorded alike.
    std::vector<std::string> sets;
    if (vm.count("game") && (vm.count("set") || vm.count("rules")))
        for (const auto& [n, v] : canonical_settings(vm)) sets.push_back("--set=" + n + "=" + v);
    const bool game_settings = vm.count("game") > 0;
    bool sets_placed = false;
    for (const auto& [name, value] : vm) {
        if (name == "game" || name == "file" || name == "shard" || name == "out" ||
            name == "threads" || name == "no-progress" || name == "help" || value.defaulted())
            continue;
        if (game_settings && (name == "rules" || name == "set")) continue;
        if (!sets_placed && name > "set") {
            args.insert(args.end(), sets.begin(), sets.end());
            sets_placed = true;
        }
        const auto& v = value.value();
        if (const auto* s = boost::any_cast<std::string>(&v); s && s->empty())
            args.push_back("--" + name);  // a flag (--report): Boost stores it as ""
        else if (s)                       // 1M and 1000000 alike
            args.push_back("--" + name + "=" +
                           (name == "playouts" ? std::to_string(parse_playouts(*s))
                            : name == "seed"   ? std::to_string(parse_seed(*s))
                                               : *s));
        else if (const auto* list = boost::any_cast<std::vector<std::string>>(&v))
            for (const auto& x : *list) args.push_back("--" + name + "=" + x);
        else if (v.empty())
            args.push_back("--" + name);
        else
            throw std::logic_error("option --" + name + " is neither text nor a flag");
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
    if (a.progress()) return;                                           // the bar says it
    if (io.share && io.share->mode() == Executor::Mode::merge) return;  // nothing is played
    if (a.shard) return;  // the shard says what it plays (sim/executor.cpp)
    io.err << who << ": " << what << " queued on " << threads
           << (threads == 1 ? " thread" : " threads")
           << (io.team ? " on each of " + std::to_string(io.team->size) + " MPI ranks" : "")
           << std::endl;
}

}  // namespace odds::cli
