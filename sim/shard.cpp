#include "sim/shard.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "engine/line_reader.hpp"
#include "reports/csv.hpp"
#include "sim/cli.hpp"
#include "sim/cli_spec.hpp"
#include "sim/shard_file.hpp"

namespace odds::cli {

namespace fs = std::filesystem;

namespace {

constexpr std::uint64_t kMaxShards = 1'000'000;

std::string chunk_span(std::uint64_t a, std::uint64_t b) {  // [a, b) as "a..b-1"
    return b == a + 1 ? "chunk " + std::to_string(a)
                      : "chunks " + std::to_string(a) + ".." + std::to_string(b - 1);
}

std::pair<std::uint64_t, std::uint64_t> share_of(std::uint64_t index, std::uint64_t count,
                                                 std::uint64_t units) {
    // (I-1)U/N .. IU/N without overflow: U and N are far below 2^32.
    return {(index - 1) * units / count, index * units / count};
}

}  // namespace

// The command's arguments as given, rebuilt from what was parsed, without those that say how
// the work is shared or where it goes: GAME first, then --NAME=VALUE in name order (a repeated
// option's values in their order), the defaults left out.
std::vector<std::string> canonical_args(const po::variables_map& vm) {
    std::vector<std::string> args;
    if (vm.count("game")) args.push_back(vm["game"].as<std::string>());
    if (vm.count("file")) {  // odds check's FILE..., odds report's DIR
        if (const auto* files = boost::any_cast<std::vector<std::string>>(&vm["file"].value()))
            args.insert(args.end(), files->begin(), files->end());
        else
            args.push_back(vm["file"].as<std::string>());
    }
    for (const auto& [name, value] : vm) {
        if (name == "game" || name == "file" || name == "shard" || name == "out" ||
            name == "threads" || name == "no-progress" || name == "help" || value.defaulted())
            continue;
        if (name == "rules") {  // the variant file's options that differ from the book, as --set
            for (const auto& [n, v] : rules_changes(vm)) args.push_back("--set=" + n + "=" + v);
            continue;
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
    for (const auto& a : args)
        if (a.find('\n') != std::string::npos)
            throw UsageError("an argument holds a line break; a shard cannot record it");
    return args;
}

ShardJob job_of(const PreparedRun& run, std::uint64_t playouts) {
    return {run.scenario, run.policy, WorkShare::chunks_of(playouts, run.chunk_size),
            run.chunk_size};
}

std::pair<std::uint64_t, std::uint64_t> parse_shard(const std::string& text) {
    const auto slash = text.find('/');
    const auto i = slash == std::string::npos ? std::nullopt : to_u64(text.substr(0, slash));
    const auto n = slash == std::string::npos ? std::nullopt : to_u64(text.substr(slash + 1));
    if (!i || !n || *i < 1 || *i > *n || *n > kMaxShards)
        throw UsageError("--shard '" + text +
                         "' is not valid; give I/N, shard I of N, with 1 <= I <= N <= 1000000 "
                         "(such as 1/4)");
    return {*i, *n};
}

void check_shards(std::vector<Shard>& shards, bool allow_gaps) {
    if (shards.empty()) throw UsageError("no shards to merge");
    const Shard& a = shards.front();
    for (const Shard& b : shards) {
        const auto differ = [&](const std::string& what, const std::string& x,
                                const std::string& y) {
            if (x != y)
                throw UsageError("shards '" + a.source + "' and '" + b.source +
                                 "' are of different " + what + " ('" + x + "' and '" + y +
                                 "'): they cannot be merged");
        };
        differ("commands", a.command, b.command);
        differ("games", a.game, b.game);
        differ("rules versions", a.rules_version, b.rules_version);
        differ("odds versions", a.odds_version, b.odds_version);
        differ("seeds", std::to_string(a.seed), std::to_string(b.seed));
        differ("playouts", std::to_string(a.playouts), std::to_string(b.playouts));
        if (a.jobs.size() != b.jobs.size())
            differ("numbers of runs", std::to_string(a.jobs.size()), std::to_string(b.jobs.size()));
        for (std::size_t j = 0; j < a.jobs.size(); ++j) {
            differ("scenarios", a.jobs[j].scenario, b.jobs[j].scenario);
            differ("policies", a.jobs[j].policy, b.jobs[j].policy);
            differ("chunk counts", std::to_string(a.jobs[j].chunks),
                   std::to_string(b.jobs[j].chunks));
            differ("chunk sizes", std::to_string(a.jobs[j].chunk_size),
                   std::to_string(b.jobs[j].chunk_size));
        }
        const auto joined = [](const std::vector<std::string>& v) {
            std::string s;
            for (const auto& x : v) s += (s.empty() ? "" : " ") + x;
            return s;
        };
        differ("options", joined(a.args), joined(b.args));
    }
    std::stable_sort(shards.begin(), shards.end(), [](const Shard& x, const Shard& y) {
        return x.first != y.first ? x.first < y.first : x.last < y.last;
    });
    std::uint64_t units = 0;
    for (const auto& j : shards.front().jobs) units += j.chunks;
    const auto missing = [&](std::uint64_t from, std::uint64_t to) {
        std::string which;
        const std::uint64_t n = shards.front().count;
        for (std::uint64_t i = 1; i <= n && which.empty(); ++i)
            if (share_of(i, n, units) == std::pair{from, to})
                which = " (shard " + std::to_string(i) + "/" + std::to_string(n) + "'s)";
        return UsageError(chunk_span(from, to) + " of the " + std::to_string(units) +
                          (to == from + 1 ? " is missing" : " are missing") + which +
                          ": no shard given holds " + (to == from + 1 ? "it" : "them"));
    };
    std::uint64_t covered = 0;
    const Shard* previous = nullptr;
    for (const Shard& s : shards) {
        if (s.first == s.last) continue;  // a shard with no chunks (N above the chunks)
        if (s.first < covered)
            throw UsageError("shards '" + previous->source + "' and '" + s.source +
                             "' overlap: both hold " +
                             chunk_span(s.first, std::min(covered, s.last)) + " of the " +
                             std::to_string(units));
        if (s.first > covered && !allow_gaps) throw missing(covered, s.first);
        covered = s.last;
        previous = &s;
    }
    if (covered < units && !allow_gaps) throw missing(covered, units);
}

// ---- the work share ----

WorkShare WorkShare::shard(std::uint64_t index, std::uint64_t count, bool in_memory) {
    WorkShare w;
    w.mode_ = Mode::shard;
    w.in_memory_ = in_memory;
    w.shard_.index = index;
    w.shard_.count = count;
    return w;
}

WorkShare WorkShare::merge(std::vector<Shard> shards, bool allow_gaps) {
    check_shards(shards, allow_gaps);
    WorkShare w;
    w.mode_ = Mode::merge;
    w.shard_ = shards.front();
    w.shards_ = std::move(shards);
    return w;
}

void WorkShare::begin(const po::variables_map& vm, std::string_view command, const GameEntry& game,
                      std::uint64_t seed, std::uint64_t playouts, std::vector<ShardJob> jobs,
                      Io io) {
    unit0_.clear();
    std::uint64_t units = 0;
    for (const auto& j : jobs) {
        unit0_.push_back(units);
        units += j.chunks;
    }
    job_playouts_ = playouts;
    if (vm.count("out")) out_ = vm["out"].as<std::string>();
    if (mode_ == Mode::whole) return;
    if (mode_ == Mode::merge) {
        // This build must prepare what the shards played: the same rules and the same runs.
        if (shard_.rules_version != game.rules_version)
            throw UsageError("the shards were played under rules version " + shard_.rules_version +
                             ", this build plays " + std::string(game.rules_version) +
                             ": merge them with the odds " + shard_.odds_version +
                             " that played them");
        if (jobs != shard_.jobs)
            throw UsageError(
                "this build prepares other runs than the shards played (scenario, "
                "policies or chunks differ): merge them with the odds " +
                shard_.odds_version + " that played them");
        return;
    }
    if (!in_memory_ && !out_)
        throw UsageError("--shard needs --out DIR: the folder its shard file is written into");
    shard_.odds_version = ODDS_VERSION;
    shard_.command = std::string(command);
    shard_.game = std::string(game.name);
    shard_.rules_version = std::string(game.rules_version);
    shard_.seed = seed;
    shard_.playouts = playouts;
    shard_.args = canonical_args(vm);
    shard_.jobs = std::move(jobs);
    shard_.states.assign(shard_.jobs.size(), {});
    std::tie(shard_.first, shard_.last) = share_of(shard_.index, shard_.count, units);
    shard_.last = shard_.first;  // grows as the chunks are played
    share_playouts_.clear();
    std::uint64_t share_total = 0;
    for (std::size_t j = 0; j < shard_.jobs.size(); ++j) {
        const auto [b, e] = range_of(j);
        // The playouts of chunks b .. e-1 (the job's last chunk may be short).
        const std::uint64_t size = shard_.jobs[j].chunk_size;
        share_playouts_.push_back(std::min(e * size, playouts) - std::min(b * size, playouts));
        share_total += share_playouts_.back();
    }
    const bool show = show_bar_ || (vm.count("shard") && !vm.count("no-progress") &&
                                    ProgressBar::stderr_is_terminal());
    bar_.emplace(scale_ ? playouts * shard_.jobs.size() : share_total, show);
    if (!in_memory_ && !(show && ProgressBar::stderr_is_terminal())) {
        const auto [b, e] = share_of(shard_.index, shard_.count, units);
        io.err << "odds " << command << ": shard " << shard_.index << '/' << shard_.count
               << " plays "
               << (b == e ? "nothing (more shards than chunks)"
                          : chunk_span(b, e) + " of the " + std::to_string(units))
               << std::endl;
    }
}

std::pair<std::uint64_t, std::uint64_t> WorkShare::range_of(std::size_t job) const {
    if (mode_ == Mode::whole) return {0, ~std::uint64_t{0}};
    std::uint64_t units = 0;
    for (const auto& j : shard_.jobs) units += j.chunks;
    const auto [b, e] = share_of(shard_.index, shard_.count, units);
    const std::uint64_t u0 = unit0_[job], u1 = u0 + shard_.jobs[job].chunks;
    const std::uint64_t lo = std::clamp(b, u0, u1), hi = std::clamp(e, u0, u1);
    return {lo - u0, hi - u0};
}

std::function<void(std::uint64_t)> WorkShare::progress_for(std::size_t) {
    if (!bar_) return {};
    std::uint64_t share_total = 0;
    for (const auto p : share_playouts_) share_total += p;
    // MPI's rank 0 shows its share scaled to the whole run: every rank plays alike.
    const double scale = scale_ && share_total > 0 ? static_cast<double>(job_playouts_) *
                                                         static_cast<double>(shard_.jobs.size()) /
                                                         static_cast<double>(share_total)
                                                   : 1.0;
    return [this, before = done_before_, scale](std::uint64_t done) {
        bar_->update(static_cast<std::uint64_t>(static_cast<double>(before + done) * scale));
    };
}

void WorkShare::record(std::size_t job, std::uint64_t chunks, bool partial,
                       std::vector<std::string> lines) {
    shard_.states[job] = std::move(lines);
    shard_.last += chunks;
    done_before_ += share_playouts_[job];
    if (partial) interrupted_ = true;
}

void WorkShare::for_each_state(std::size_t job, const std::function<void(StateReader&)>& f) const {
    for (const Shard& s : shards_) {
        if (s.states[job].empty()) continue;
        StateReader in(s.states[job], s.source,
                       job < s.state_lines.size() ? &s.state_lines[job] : nullptr);
        // The playouts its state counts (the first line's second word) are those its chunks of
        // this job hold: a forged count (2^64-1, or one that would overflow the sum) is refused.
        const std::uint64_t u0 = unit0_[job], u1 = u0 + shard_.jobs[job].chunks;
        const std::uint64_t lo = std::clamp(s.first, u0, u1) - u0,
                            hi = std::clamp(s.last, u0, u1) - u0;
        const std::uint64_t size = shard_.jobs[job].chunk_size, p = shard_.playouts;
        const auto times = [](std::uint64_t a, std::uint64_t b) {  // saturating
            return b != 0 && a > ~std::uint64_t{0} / b ? ~std::uint64_t{0} : a * b;
        };
        // Where the job plays the command's playouts, its chunks hold exactly so many (the last
        // one perhaps short); else at most whole chunks.
        const bool exact = p / size + (p % size != 0) == shard_.jobs[job].chunks;
        const std::uint64_t held = exact
                                       ? std::min(times(hi, size), p) - std::min(times(lo, size), p)
                                       : times(hi - lo, size);
        const auto head = split_words(s.states[job].front());
        const auto counted = head.size() >= 2 ? to_u64(head[1]) : std::nullopt;
        if (counted && (exact ? *counted != held : *counted > held))
            throw in.bad("its state counts " + head[1] + " playouts, but its chunks " +
                         chunk_span(lo, hi) + " of job " + std::to_string(job) + " hold " +
                         (exact ? "" : "at most ") + std::to_string(held) + ": edited or forged");
        f(in);
        in.expect_end("job " + std::to_string(job) + " has lines left over");
    }
}

bool WorkShare::merged_partial(std::size_t job) const {
    const std::uint64_t u0 = unit0_[job], u1 = u0 + shard_.jobs[job].chunks;
    std::uint64_t covered = 0;
    for (const Shard& s : shards_) {
        const std::uint64_t lo = std::clamp(s.first, u0, u1), hi = std::clamp(s.last, u0, u1);
        covered += hi - lo;
    }
    return covered < u1 - u0;
}

RunResult WorkShare::play(std::size_t job, const PreparedRun& run, RunConfig cfg, ProgressBar* bar,
                          std::uint64_t offset) {
    if (mode_ == Mode::whole) return cli::play(run, cfg, bar, offset);
    return play(job, run, cfg, std::function<void(std::uint64_t)>{});
}

RunResult WorkShare::play(std::size_t job, const PreparedRun& run, RunConfig cfg,
                          std::function<void(std::uint64_t done)> progress) {
    return play_share(job, cfg, Tally(run.metrics, run.survivals), std::move(progress),
                      [&](const RunConfig& c, std::function<void(std::uint64_t)> p) {
                          return cli::play(run, c, std::move(p));
                      });
}

std::optional<int> WorkShare::finish(const std::optional<std::string>& out_dir, Io io,
                                     std::string_view who) {
    if (mode_ != Mode::shard) return std::nullopt;
    if (bar_) bar_->finish();
    shard_.partial = interrupted_;
    if (in_memory_) return interrupted_ ? 130 : 0;
    if (interrupted_) {
        io.err << who << ": interrupted; no shard written (play shard " << shard_.index << '/'
               << shard_.count << " again)\n";
        return 130;
    }
    const fs::path path = fs::path(*out_dir) / ("shard-" + std::to_string(shard_.index) + "-of-" +
                                                std::to_string(shard_.count) + ".odds");
    write_file_atomic(path, shard_text(shard_));
    std::uint64_t units = 0;
    for (const auto& j : shard_.jobs) units += j.chunks;
    io.out << who << ": shard " << shard_.index << '/' << shard_.count << " ("
           << (shard_.first == shard_.last
                   ? "no chunks"
                   : chunk_span(shard_.first, shard_.last) + " of the " + std::to_string(units))
           << ") written to " << path.string() << "; merge the shards with 'odds merge'\n";
    return 0;
}

ShareOf::ShareOf(const po::variables_map& vm, Io io) {
    if (io.share) {
        if (vm.count("shard") && io.share->mode() == WorkShare::Mode::shard)
            throw UsageError("--shard '" + vm["shard"].as<std::string>() +
                             "' under mpirun: MPI shares the chunks over the ranks itself; "
                             "give --shard without mpirun, or mpirun without --shard");
        p_ = io.share;
        return;
    }
    if (vm.count("shard")) {
        const auto [i, n] = parse_shard(vm["shard"].as<std::string>());
        own_.emplace(WorkShare::shard(i, n, false));
    } else {
        own_.emplace();
    }
    p_ = &*own_;
}

int run_merged(std::vector<Shard> shards, const std::optional<std::string>& out, Io io,
               bool allow_gaps) {
    WorkShare share = WorkShare::merge(std::move(shards), allow_gaps);
    const Shard& s = share.result();
    std::vector<std::string> args = s.args;
    args.push_back("--no-progress");
    if (out) args.push_back("--out=" + *out);
    // The command makes --out before it reads the shards' states; a shard refused there must not
    // leave behind the (empty) folders it made.
    std::vector<fs::path> made;  // the folders of --out that did not exist, deepest first
    if (out && !out->empty()) {
        std::error_code ec;
        for (fs::path p = fs::absolute(*out, ec).lexically_normal();
             !p.empty() && !fs::exists(p, ec) && p != p.parent_path(); p = p.parent_path())
            if (p.has_filename()) made.push_back(p);
    }
    try {
        return find_command(s.command).run(args, Io{io.out, io.err, &share});
    } catch (...) {
        // Only folders: a file in one (none is written before the states are read) keeps it.
        const auto remove_empty = [](const auto& self, const fs::path& dir) -> void {
            std::error_code ec;
            if (!fs::is_directory(dir, ec) || fs::is_symlink(dir, ec)) return;
            for (const auto& e : fs::directory_iterator(dir, ec)) self(self, e.path());
            if (fs::is_empty(dir, ec)) fs::remove(dir, ec);  // removes only an empty folder
        };
        // compare makes a folder a policy inside --out: those go too.
        for (const auto& p : made) remove_empty(remove_empty, p);
        throw;
    }
}

}  // namespace odds::cli
