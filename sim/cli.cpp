// The odds command line: `odds list`, `odds run`. Exit codes: 0 done, 1 failed while running or
// writing, 2 bad input (one line on stderr, nothing written), 130 interrupted (partial results
// written, marked partial).
#include "sim/cli.hpp"

#include <unistd.h>

#include <boost/program_options.hpp>
#include <cctype>
#include <charconv>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <iomanip>
#include <optional>
#include <thread>

#include "reports/csv.hpp"
#include "reports/stats.hpp"
#include "sim/interrupt.hpp"
#include "sim/progress.hpp"
#include "sim/registry.hpp"

namespace odds {

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace {

constexpr std::uint64_t kMaxPlayouts = 1'000'000'000'000ull;  // 1e12

const char* const kUsage =
    "odds: Monte Carlo odds for tabletop dice games\n"
    "\n"
    "usage: odds COMMAND [options]\n"
    "\n"
    "commands:\n"
    "  list   the games, their policies and their rule options\n"
    "  run    play a game many times and report its odds\n"
    "  exact  the exact odds, for games with an exact solver\n"
    "\n"
    "'odds COMMAND --help' describes a command. Exit codes: 0 done, 1 failed while running or\n"
    "writing, 2 bad input, 130 interrupted (partial results written).\n";

struct Io {
    std::ostream& out;
    std::ostream& err;
};

}  // namespace

std::optional<std::uint64_t> parse_count(std::string_view text) {
    // digits [. digits] [e digits] [k|K|M|G|B]; the value must be a whole number.
    if (text.empty()) return std::nullopt;
    long double mult = 1;
    switch (text.back()) {
        case 'k': case 'K': mult = 1e3L; break;
        case 'M': mult = 1e6L; break;
        case 'G': case 'B': mult = 1e9L; break;
        default: break;
    }
    if (mult != 1) text.remove_suffix(1);
    std::size_t i = 0;
    long double v = 0, scale = 0;
    bool digits = false;
    for (; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i, digits = true)
        v = v * 10 + (text[i] - '0');
    if (i < text.size() && text[i] == '.') {
        scale = 1;
        for (++i; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]));
             ++i, digits = true)
            v += (text[i] - '0') * (scale /= 10);
    }
    if (!digits) return std::nullopt;
    if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
        int e = 0;
        bool edigits = false;
        for (++i; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]));
             ++i, edigits = true)
            e = std::min(e * 10 + (text[i] - '0'), 100);
        if (!edigits) return std::nullopt;
        v *= std::pow(10.0L, e);
    }
    if (i != text.size()) return std::nullopt;
    v *= mult;
    if (v < 1 || v > static_cast<long double>(kMaxPlayouts) || v != std::floor(v))
        return std::nullopt;
    return static_cast<std::uint64_t>(v);
}

namespace {

std::uint64_t parse_playouts(const std::string& s) {
    if (auto v = parse_count(s)) return *v;
    throw UsageError("--playouts '" + s +
                     "' is not valid; give a whole number from 1 to 1e12, such as 1000000, 1e6 "
                     "or 1M");
}

std::uint64_t parse_seed(const std::string& s) {
    std::uint64_t v = 0;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || r.ec != std::errc{} || r.ptr != s.data() + s.size())
        throw UsageError("--seed '" + s + "' is not valid; give a whole number from 0 to " +
                         std::to_string(~std::uint64_t{0}));
    return v;
}

unsigned parse_threads(const std::string& s) {
    if (const auto v = parse_integer(s, 1, 1024)) return static_cast<unsigned>(*v);
    throw UsageError("--threads '" + s + "' is not valid; give a whole number from 1 to 1024");
}

// Makes `dir` (and its parents) and checks a file can be created in it.
void prepare_out_dir(const std::string& dir) {
    if (dir.empty()) throw UsageError("--out '' is not valid; give a directory");
    std::error_code ec;
    const fs::path p(dir);
    if (fs::exists(p, ec) && !fs::is_directory(p, ec))
        throw UsageError("--out '" + dir + "' is not a directory");
    fs::create_directories(p, ec);
    if (ec) throw UsageError("--out '" + dir + "' cannot be created: " + ec.message());
    const fs::path probe = p / (".odds-probe-" + std::to_string(::getpid()));
    std::FILE* f = std::fopen(probe.c_str(), "wb");
    if (!f)
        throw UsageError("--out '" + dir + "' is not writable: " +
                         std::error_code(errno, std::generic_category()).message());
    std::fclose(f);
    fs::remove(probe, ec);
}

int cmd_list(const std::vector<std::string>& args, Io io) {
    po::options_description desc(
        "usage: odds list [GAME]\n\nEvery game (or one), its policies and its rule options with "
        "their defaults.\n\noptions");
    desc.add_options()("help,h", "show this help");
    po::options_description hidden;
    hidden.add_options()("game", po::value<std::string>());
    po::options_description all;
    all.add(desc).add(hidden);
    po::positional_options_description pos;
    pos.add("game", 1);
    po::variables_map vm;
    po::store(po::command_line_parser(args).options(all).positional(pos).run(), vm);
    if (vm.count("help")) {
        io.out << desc << '\n';
        return 0;
    }
    std::vector<const GameEntry*> shown;
    if (vm.count("game"))
        shown.push_back(&find_game(vm["game"].as<std::string>()));
    else
        for (const auto& g : games()) shown.push_back(&g);
    for (const auto* g : shown) {
        io.out << g->name << " - " << g->title << ": " << g->summary << "\n  policies (--policy "
               << (g->seats.empty() ? "NAME" : "NAME for every seat, or SEAT=NAME; seats: " +
                                                   std::string(g->seats))
               << "; default " << g->policies.front().name << "):\n";
        for (const auto& p : g->policies)
            io.out << "    " << std::left << std::setw(22) << p.name << p.help << '\n';
        io.out << "  options (--set NAME=VALUE):\n";
        for (const auto& o : g->options)
            io.out << "    " << std::left << std::setw(22)
                   << (std::string(o.name) + "=" + std::string(o.default_value)) << o.help
                   << '\n';
    }
    return 0;
}

int cmd_run(const std::vector<std::string>& args, Io io) {
    po::options_description desc(
        "usage: odds run GAME [options]\n\nPlays GAME many times in parallel and reports its "
        "odds: a table on stdout, and with --out the files summary.csv, distributions.csv and "
        "survival.csv (see README.md). The same seed gives the same files for any --threads.\n\n"
        "options");
    desc.add_options()
        ("help,h", "show this help")
        ("playouts,n", po::value<std::string>()->default_value("1M"),
         "playouts to play: 1000000, 1e6 and 1M all work")
        ("seed,s", po::value<std::string>()->default_value("1"), "the run's seed (0 to 2^64-1)")
        ("threads,j", po::value<std::string>(), "worker threads (default: every hardware thread)")
        ("set", po::value<std::vector<std::string>>()->composing(),
         "a rule option NAME=VALUE; repeatable ('odds list GAME' shows them)")
        ("policy,p", po::value<std::vector<std::string>>()->composing(),
         "the policy by name ('odds list GAME' shows them)")
        ("out,o", po::value<std::string>(), "write the CSV files into this directory")
        ("no-progress", "no progress bar, even on a terminal");
    po::options_description hidden;
    hidden.add_options()("game", po::value<std::string>());
    po::options_description all;
    all.add(desc).add(hidden);
    po::positional_options_description pos;
    pos.add("game", 1);
    po::variables_map vm;
    po::store(po::command_line_parser(args).options(all).positional(pos).run(), vm);
    if (vm.count("help")) {
        io.out << desc << '\n';
        return 0;
    }
    if (!vm.count("game")) {
        std::string valid;
        for (const auto& g : games()) valid += (valid.empty() ? "" : ", ") + std::string(g.name);
        throw UsageError("which game? give one of: " + valid);
    }

    // Every input is checked before anything runs or is written.
    const GameEntry& game = find_game(vm["game"].as<std::string>());
    Settings settings;
    if (vm.count("set"))
        for (const auto& s : vm["set"].as<std::vector<std::string>>())
            settings.push_back(split_setting(s));
    const std::vector<std::string> policies =
        vm.count("policy") ? vm["policy"].as<std::vector<std::string>>()
                           : std::vector<std::string>{};
    const auto prepared = game.prepare(settings, policies);
    RunConfig cfg;
    cfg.playouts = parse_playouts(vm["playouts"].as<std::string>());
    cfg.seed = parse_seed(vm["seed"].as<std::string>());
    cfg.threads = vm.count("threads") ? parse_threads(vm["threads"].as<std::string>())
                                      : std::max(1u, std::thread::hardware_concurrency());
    cfg.chunk_size = prepared->chunk_size;
    const std::optional<std::string> out_dir =
        vm.count("out") ? std::optional(vm["out"].as<std::string>()) : std::nullopt;
    if (out_dir) prepare_out_dir(*out_dir);

    // Play.
    InterruptGuard guard;
    InterruptGuard::reset();
    ProgressBar bar(cfg.playouts, !vm.count("no-progress") && ProgressBar::stderr_is_terminal());
    RunControl ctl;
    ctl.stop = &InterruptGuard::flag();
    ctl.progress = [&bar](std::uint64_t done) { bar.update(done); };
    const RunResult result = prepared->run(cfg, ctl);
    bar.finish();

    // Report.
    RunInfo info{prepared->game,           prepared->scenario, prepared->policy, cfg.seed,
                 result.tally.playouts(), false,              result.partial};
    const auto ds = distributions(result.tally, prepared->metrics);
    std::vector<Summary> rows;
    for (const auto& d : ds) rows.push_back(summarize(d, false));
    if (out_dir) {
        const fs::path dir(*out_dir);
        write_file_atomic(dir / "summary.csv", summary_csv(info, rows));
        write_file_atomic(dir / "distributions.csv", distributions_csv(info, ds));
        if (const auto sv = survival_csv(result.tally); !sv.empty())
            write_file_atomic(dir / "survival.csv", sv);
    }
    print_table(io.out, info, rows);
    if (result.partial) {
        io.err << "odds run: interrupted after " << result.tally.playouts() << " of "
               << cfg.playouts << " playouts; results written are marked partial\n";
        return 130;
    }
    return 0;
}

int cmd_exact(const std::vector<std::string>& args, Io io) {
    po::options_description desc(
        "usage: odds exact GAME [options]\n\nThe exact odds of GAME, where the mathematics "
        "allows: the same summary.csv and distributions.csv columns as 'odds run', with method "
        "'exact' (ci_low = ci_high = the value, unless part of the probability is unresolved: "
        "see README.md).\n\noptions");
    desc.add_options()
        ("help,h", "show this help")
        ("set", po::value<std::vector<std::string>>()->composing(),
         "a rule option NAME=VALUE; repeatable ('odds list GAME' shows them)")
        ("policy,p", po::value<std::vector<std::string>>()->composing(),
         "the policy by name ('odds list GAME' shows them)")
        ("out,o", po::value<std::string>(), "write the CSV files into this directory");
    po::options_description hidden;
    hidden.add_options()("game", po::value<std::string>());
    po::options_description all;
    all.add(desc).add(hidden);
    po::positional_options_description pos;
    pos.add("game", 1);
    po::variables_map vm;
    po::store(po::command_line_parser(args).options(all).positional(pos).run(), vm);
    if (vm.count("help")) {
        io.out << desc << '\n';
        return 0;
    }
    std::string with_solver;
    for (const auto& g : games())
        if (g.exact) with_solver += (with_solver.empty() ? "" : ", ") + std::string(g.name);
    if (!vm.count("game")) throw UsageError("which game? give one of: " + with_solver);
    const GameEntry& game = find_game(vm["game"].as<std::string>());
    if (!game.exact)
        throw UsageError("game '" + std::string(game.name) +
                         "' has no exact solver (games with one: " + with_solver + ")");
    Settings settings;
    if (vm.count("set"))
        for (const auto& s : vm["set"].as<std::vector<std::string>>())
            settings.push_back(split_setting(s));
    const std::vector<std::string> policies =
        vm.count("policy") ? vm["policy"].as<std::vector<std::string>>()
                           : std::vector<std::string>{};
    const auto start = std::chrono::steady_clock::now();
    const ExactReport report = game.exact(settings, policies);  // checks its input first
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
            .count();
    const std::optional<std::string> out_dir =
        vm.count("out") ? std::optional(vm["out"].as<std::string>()) : std::nullopt;
    if (out_dir) prepare_out_dir(*out_dir);

    RunInfo info{report.game, report.scenario, report.policy, 0, 0, true, false};
    std::vector<Summary> rows;
    for (const auto& d : report.laws) rows.push_back(summarize(d, true));
    if (out_dir) {
        const fs::path dir(*out_dir);
        write_file_atomic(dir / "summary.csv", summary_csv(info, rows));
        write_file_atomic(dir / "distributions.csv", distributions_csv(info, report.laws));
    }
    print_table(io.out, info, rows);
    for (const auto& n : report.notes) io.out << n << '\n';
    io.out << "solved in " << std::fixed << std::setprecision(1) << ms << " ms\n";
    return 0;
}

}  // namespace

int odds_main(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
    std::vector<std::string> args(argv + std::min(argc, 1), argv + argc);
    const std::string command = args.empty() ? "" : args.front();
    if (!args.empty()) args.erase(args.begin());
    const std::string who = command.empty() || command.front() == '-' ? "odds" : "odds " + command;
    try {
        if (command.empty()) {
            err << kUsage;
            return 2;
        }
        if (command == "--help" || command == "-h" || command == "help") {
            out << kUsage;
            return 0;
        }
        if (command == "list") return cmd_list(args, {out, err});
        if (command == "run") return cmd_run(args, {out, err});
        if (command == "exact") return cmd_exact(args, {out, err});
        throw UsageError("unknown command '" + command +
                         "' (valid: list, run, exact; see odds --help)");
    } catch (const UsageError& e) {
        err << who << ": " << e.what() << '\n';
        return 2;
    } catch (const po::error& e) {
        err << who << ": " << e.what() << " (see '" << who << " --help')\n";
        return 2;
    } catch (const std::exception& e) {
        err << who << ": error: " << e.what() << '\n';
        return 1;
    }
}

}  // namespace odds
