#include "sim/cli/common.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <thread>

#include "engine/line_reader.hpp"
#include "reports/chars.hpp"
#include "reports/check_report.hpp"
#include "reports/csv.hpp"
#include "sim/executor.hpp"
#include "sim/interrupt.hpp"
#include "sim/rules_file.hpp"

namespace odds::cli {

namespace fs = std::filesystem;

void add_rules_option(po::options_description& d) {
    d.add_options()("rules", po::value<std::string>()->value_name("FILE"),
                    "the rule options of a variant file ('odds rules GAME' writes one; "
                    "docs/variants.md); --set applies on top");
}

void add_set_option(po::options_description& d, const char* help) {
    d.add_options()(
        "set", po::value<std::vector<std::string>>()->composing()->value_name("NAME=VALUE"), help);
}

void add_game_options(po::options_description& d) {
    add_rules_option(d);
    add_set_option(d);
    d.add_options()("policy,p",
                    po::value<std::vector<std::string>>()->composing()->value_name("NAME"),
                    "the policy by name, or SEAT=NAME per seat ('odds list GAME' shows them)");
}

void add_run_options(po::options_description& d, const char* default_playouts,
                     const char* shard_help, const char* playouts_help) {
    auto* playouts = po::value<std::string>()->value_name("N");
    if (default_playouts) playouts->default_value(default_playouts);
    d.add_options()("playouts,n", playouts,
                    playouts_help ? playouts_help
                    : default_playouts
                        ? "playouts to play: 1000000, 1e6 and 1M all work (suffixes k, M, G)"
                        : "playouts to play: 1000000, 1e6 and 1M all work (suffixes k, M, G); "
                          "default: the game's, about two minutes on 2 cores (1M for most "
                          "games; 'odds list GAME' says)")(
        "seed,s", po::value<std::string>()->default_value("1")->value_name("N"),
        "the run's seed (0 to 2^64-1)")("threads,j", po::value<std::string>()->value_name("N"),
                                        "worker threads (default: every hardware thread)")(
        "no-progress", "no progress bar, even on a terminal");
    if (shard_help)  // a command that refuses --shard, saying why
        d.add_options()("shard", po::value<std::string>()->value_name("I/N"), shard_help);
    else
        add_shard_option(d);
}

void add_shard_option(po::options_description& d, const char* note) {
    static const std::string base =
        "play only shard I of N (1 <= I <= N) and write its exact state into --out DIR as "
        "shard-I-of-N.odds, for 'odds merge' (docs/cluster.md)";
    d.add_options()("shard", po::value<std::string>()->value_name("I/N"),
                    note ? (base + "; " + note).c_str() : base.c_str())(
        "dry-run",
        "print the plan (its jobs, playouts and expected time, from about a second's "
        "calibration of each job) and exit 0; nothing written");
}

void no_options(po::options_description&) {}

void out_option(po::options_description& d, const char* what) {
    d.add_options()("out,o", po::value<std::string>()->value_name("DIR"), what);
}

po::variables_map parse(const std::vector<std::string>& args, const po::options_description& d,
                        const char* positional, int max_positional) {
    po::options_description hidden;
    if (max_positional == 1)
        hidden.add_options()(positional, po::value<std::string>());
    else
        hidden.add_options()(positional, po::value<std::vector<std::string>>());
    po::options_description all;
    all.add(d).add(hidden);
    po::positional_options_description pos;
    pos.add(positional, max_positional);
    po::variables_map vm;
    po::store(po::command_line_parser(args).options(all).positional(pos).run(), vm);
    return vm;
}

std::vector<std::string> comma_names(const std::string& option, const std::string& list) {
    std::vector<std::string> names;
    for (std::size_t from = 0;;) {
        const std::size_t comma = list.find(',', from);
        std::string name = list.substr(from, comma == std::string::npos ? comma : comma - from);
        if (name.empty())
            throw UsageError(option + " '" + list + "': an empty name; give METRIC,METRIC,...");
        if (std::find(names.begin(), names.end(), name) != names.end())
            throw UsageError(option + " '" + list + "' names '" + name + "' twice");
        names.push_back(std::move(name));
        if (comma == std::string::npos) return names;
        from = comma + 1;
    }
}

std::string fixed(double v, int digits) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", digits, v);
    return buf;
}

void add_format_option(po::options_description& d, const char* csv_file) {
    d.add_options()("format", po::value<std::string>()->value_name("FORM"),
                    (std::string("what stdout gets: table (the default), csv (") + csv_file +
                     ", as --out writes it) or json (its rows as a JSON array), for pipes")
                        .c_str());
}

Format format_of(const Args& opt) {
    if (!opt.format) return Format::table;
    const std::string f = *opt.format;
    if (f == "table") return Format::table;
    if (f == "csv") return Format::csv;
    if (f == "json") return Format::json;
    throw UsageError("--format '" + f + "' is not valid; give table, csv or json");
}

void print_rows(std::ostream& out, Format f, const std::string& csv) {
    if (f != Format::json) {
        out << csv;
        return;
    }
    const CsvTable t = parse_csv(csv);
    const auto cell = [](const std::string& v) {
        if (v.empty()) return std::string("null");
        const std::optional<double> x = text_double(v);
        const std::size_t d = v[0] == '-' ? 1 : 0;  // JSON's number: no "+", ".5", "007"
        const bool json_like = d < v.size() && std::isdigit(static_cast<unsigned char>(v[d])) &&
                               !(v[d] == '0' && d + 1 < v.size() &&
                                 std::isdigit(static_cast<unsigned char>(v[d + 1]))) &&
                               v.back() != '.';
        if (json_like && x && std::isfinite(*x))
            return v;  // as the CSV spells it: the shortest round trip
        return json_string(v);
    };
    out << '[';
    for (std::size_t r = 0; r < t.rows.size(); ++r) {
        out << (r ? ",\n  {" : "\n  {");
        for (std::size_t c = 0; c < t.header.size(); ++c)
            out << (c ? ", " : "") << json_string(t.header[c]) << ": "
                << cell(c < t.rows[r].size() ? t.rows[r][c] : std::string());
        out << '}';
    }
    out << (t.rows.empty() ? "]\n" : "\n]\n");
}

bool is_range(std::string_view spec) {
    return spec.find("..") != std::string_view::npos || spec.find(':') != std::string_view::npos;
}

std::optional<IntRange> parse_range(std::string_view spec, std::string& why) {
    std::string_view lo_text, hi_text, step_text;
    bool has_step = false;
    if (const auto dots = spec.find(".."); dots != std::string_view::npos) {
        lo_text = spec.substr(0, dots);
        const std::string_view rest = spec.substr(dots + 2);
        const auto colon = rest.find(':');
        hi_text = rest.substr(0, colon);
        if (colon != std::string_view::npos) {
            has_step = true;
            step_text = rest.substr(colon + 1);
        }
    } else {  // the alias LO:HI[:STEP]
        const auto a = spec.find(':');
        if (a == std::string_view::npos) {
            why = "not a range";
            return std::nullopt;
        }
        lo_text = spec.substr(0, a);
        const std::string_view rest = spec.substr(a + 1);
        const auto b = rest.find(':');
        if (b == std::string_view::npos) {  // the alias always has its STEP
            why = "no STEP (LO:HI:STEP)";
            return std::nullopt;
        }
        hi_text = rest.substr(0, b);
        has_step = true;
        step_text = rest.substr(b + 1);
    }
    const auto lo = parse_integer(lo_text, -1'000'000'000, 1'000'000'000);
    const auto hi = parse_integer(hi_text, -1'000'000'000, 1'000'000'000);
    const auto step =
        has_step ? parse_integer(step_text, 1, 1'000'000'000) : std::optional<std::int64_t>(1);
    if (!lo || !hi || !step) {
        why = "not whole numbers";
        return std::nullopt;
    }
    if (*lo > *hi) {
        why = "LO is above HI";
        return std::nullopt;
    }
    return IntRange{*lo, *hi, *step};
}

std::string game_names(bool (*has)(const GameEntry&)) {
    std::vector<std::string_view> names;
    for (const GameEntry& g : listed_games())
        if (!has || has(g)) names.push_back(g.name);
    return joined(names, ", ");
}

bool has_exact(const GameEntry& g) { return g.exact != nullptr; }
bool has_positions(const GameEntry& g) { return g.opening_position != nullptr; }
bool has_shape(const GameEntry& g) { return g.shape != nullptr; }
bool has_two_seats(const GameEntry& g) { return !g.versus.empty(); }
bool has_restrictions(const GameEntry& g) {
    return std::any_of(g.options.begin(), g.options.end(), [](const OptionInfo& o) {
        return o.name == "restrict" || o.name.rfind("restrict.", 0) == 0;
    });
}

namespace {}  // namespace

std::string common_scenario(const std::vector<std::string>& scenarios) {
    if (scenarios.empty()) return {};
    std::vector<std::vector<std::string>> all;
    for (const auto& s : scenarios) all.push_back(split_words(s));
    std::vector<std::string> common;
    for (const auto& w : all.front())
        if (std::all_of(all.begin(), all.end(), [&](const auto& ws) {
                return std::find(ws.begin(), ws.end(), w) != ws.end();
            }))
            common.push_back(w);
    return joined(common);
}

std::string scenario_rest(const std::string& scenario, const std::string& common) {
    const auto shared = split_words(common);
    std::vector<std::string> rest;
    for (const auto& w : split_words(scenario))
        if (std::find(shared.begin(), shared.end(), w) == shared.end()) rest.push_back(w);
    return joined(rest);
}

const GameEntry& game_of(const Args& opt) {
    if (!opt.game) throw UsageError("which game? give one of: " + game_names());
    return find_game(*opt.game);
}

Settings settings_of(const Args& opt) {
    Settings settings;
    for (const auto& s : opt.set) settings.push_back(split_setting(s));
    if (!opt.rules) return settings;
    const std::string path = *opt.rules;
    const GameEntry& game = game_of(opt);
    return merged_settings(read_rules_file(path, game), path, game, settings);
}

Settings canonical_settings(const Args& opt) {
    if (!opt.game) return {};
    return game_of(opt).canonical(settings_of(opt));
}

void add_state_option(po::options_description& d, const char* what) {
    d.add_options()("state", po::value<std::string>()->value_name("FILE"), what);
}

std::optional<StateFile> state_of(const Args& opt, const GameEntry& game, bool has_hook,
                                  std::string_view command) {
    if (!opt.state) return std::nullopt;
    const std::string path = *opt.state;
    if (!game.opening_position)
        throw UsageError("game '" + std::string(game.name) +
                         "' has no positions yet, so --state cannot start it from one (games "
                         "with positions: " +
                         game_names(has_positions) + ")");
    if (!has_hook)
        throw UsageError("'odds " + std::string(command) + " " + std::string(game.name) +
                         "' cannot start from a position (--state); 'odds run " +
                         std::string(game.name) + " --state FILE' can");
    std::error_code ec;
    if (path.empty() || fs::is_directory(path, ec))
        throw UsageError("--state '" + path +
                         "' is not a file; give a position file ('odds state " +
                         std::string(game.name) + "' prints one)");
    return StateFile{path, read_input_file(path, "--state")};
}

std::uint64_t parse_playouts(const std::string& s) {
    if (auto v = parse_count(s)) return *v;
    throw UsageError("--playouts '" + s +
                     "' is not valid; give a whole number from 1 to 1e12, such as 1000000, 1e6, "
                     "1M or 2.5k (suffixes k, M, G)");
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
    // Each worker holds a few tallies (sim/runner.hpp), so the cap bounds a run's memory too
    // (docs/commands.md); results never depend on the number of threads.
    if (const auto v = parse_integer(s, 1, kMaxThreads)) return static_cast<unsigned>(*v);
    throw UsageError("--threads '" + s + "' is not valid; give a whole number from 1 to " +
                     std::to_string(kMaxThreads));
}

void check_out_dir(const std::string& dir) {
    if (dir.empty()) throw UsageError("--out '' is not valid; give a directory");
    if (dir == "-")  // not a folder named '-': stdout takes the table, or --format csv|json
        throw UsageError(
            "--out '-' is not valid: --out takes a folder for the command's files; for its "
            "results on stdout give --format csv or --format json (without --out)");
    std::error_code ec;
    fs::path p = fs::absolute(fs::path(dir), ec);
    if (fs::exists(p, ec) && !fs::is_directory(p, ec))
        throw UsageError("--out '" + dir + "' is not a directory");
    while (!fs::exists(p, ec) && p.has_parent_path() && p != p.parent_path()) p = p.parent_path();
    if (!fs::is_directory(p, ec))
        throw UsageError("--out '" + dir + "' cannot be created: '" + p.string() +
                         "' is not a directory");
    if (::access(p.c_str(), W_OK) != 0)
        throw UsageError("--out '" + dir + "' is not writable: '" + p.string() + "' refuses it");
}

namespace {
struct HeldDir {
    dev_t dev;
    ino_t ino;
    int fd;
};
std::mutex g_locks_mu;
std::vector<HeldDir> g_locks;  // the folders this command holds locked
}  // namespace

void release_out_dirs() {
    std::lock_guard lock(g_locks_mu);
    for (const auto& h : g_locks) ::close(h.fd);
    g_locks.clear();
}

// Makes `dir` (and its parents) and checks a file can be created in it; then locks it.
void prepare_out_dir(const std::string& dir, bool shared) {
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
    const int fd = ::open(p.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        throw UsageError("--out '" + dir + "' cannot be opened: " +
                         std::error_code(errno, std::generic_category()).message());
    struct stat st {};
    ::fstat(fd, &st);
    std::lock_guard lock(g_locks_mu);
    for (const auto& h : g_locks)
        if (h.dev == st.st_dev && h.ino == st.st_ino) {  // this command holds it already
            ::close(fd);
            return;
        }
    if (::flock(fd, (shared ? LOCK_SH : LOCK_EX) | LOCK_NB) != 0) {
        const int e = errno;
        ::close(fd);
        if (e == EWOULDBLOCK)
            throw UsageError("--out '" + dir +
                             "' is being written by another odds command; wait for it to end, "
                             "or give another folder");
        throw UsageError("--out '" + dir + "' cannot be locked: " +
                         std::error_code(e, std::generic_category()).message());
    }
    g_locks.push_back({st.st_dev, st.st_ino, fd});
}

std::optional<std::string> out_dir_of(const Args& opt) {
    if (!opt.out) return std::nullopt;
    const std::string dir = *opt.out;
    check_out_dir(dir);
    return dir;
}

void check_out_file(const std::string& path, std::string_view option) {
    const std::string opt(option);
    if (path.empty()) throw UsageError(opt + " '' is not valid; give a file name");
    if (path == "-")  // not a file named '-'
        throw UsageError(opt +
                         " '-' is not valid: give a file name (odds writes the file whole, "
                         "then renames it into place)");
    const fs::path p(path);
    std::error_code ec;
    if (fs::is_directory(p, ec) || !p.has_filename())
        throw UsageError(opt + " '" + path + "' is a directory; give a file name");
    // A device or FIFO (/dev/null) is written in place, never replaced (write_file_atomic).
    if (const auto st = fs::status(p, ec); fs::exists(st) && !fs::is_regular_file(st)) {
        if (::access(p.c_str(), W_OK) != 0)
            throw UsageError(opt + " '" + path + "' is not writable");
        return;
    }
    // Its folder exists as a writable directory, or could be made: the nearest existing
    // ancestor is a writable directory.
    fs::path a = fs::absolute(p.has_parent_path() ? p.parent_path() : fs::path("."), ec);
    while (!fs::exists(a, ec) && a.has_parent_path() && a != a.parent_path()) a = a.parent_path();
    if (!fs::is_directory(a, ec))
        throw UsageError(opt + " '" + path + "' cannot be created: '" + a.string() +
                         "' is not a directory");
    if (::access(a.c_str(), W_OK) != 0)
        throw UsageError(opt + " '" + path + "' is not writable: directory '" + a.string() +
                         "' refuses it");
}

void prepare_out_file(const std::string& path, std::string_view option) {
    const std::string opt(option);
    check_out_file(path, option);
    const fs::path p(path);
    std::error_code ec;
    if (const auto st = fs::status(p, ec); fs::exists(st) && !fs::is_regular_file(st))
        return;  // a device or FIFO: written in place (write_file_atomic)
    if (p.has_parent_path()) {
        fs::create_directories(p.parent_path(), ec);
        if (ec)
            throw UsageError(opt + " '" + path + "' cannot be created: directory '" +
                             p.parent_path().string() + "': " + ec.message());
    }
    // The file is written beside itself as PATH.tmp.PID, then renamed: that name must be creatable.
    fs::path probe = p;
    probe += ".tmp." + std::to_string(::getpid());
    std::FILE* f = std::fopen(probe.c_str(), "wb");
    if (!f)
        throw UsageError(opt + " '" + path + "' is not writable: " +
                         std::error_code(errno, std::generic_category()).message());
    std::fclose(f);
    fs::remove(probe, ec);
}

}  // namespace odds::cli
