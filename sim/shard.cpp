#include "sim/shard.hpp"

#include <algorithm>
#include <boost/crc.hpp>
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

namespace odds::cli {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kMagic = "odds-shard 1";
constexpr std::uint64_t kMaxShards = 1'000'000;

std::uint32_t crc32_of(std::string_view text) {
    boost::crc_32_type crc;
    crc.process_bytes(text.data(), text.size());
    return crc.checksum();
}

std::string hex8(std::uint32_t v) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "%08x", v);
    return buf;
}

std::optional<std::uint64_t> to_u64(std::string_view s) {
    std::uint64_t v = 0;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || r.ec != std::errc{} || r.ptr != s.data() + s.size()) return std::nullopt;
    return v;
}

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

// ---- job states ----

std::vector<std::string> StateReader::line(std::string_view keyword) {
    if (next_ == lines_.size()) throw bad("its state ends before a '" + std::string(keyword) + "'");
    auto w = split_words(lines_[next_]);
    if (w.empty() || w[0] != keyword)
        throw bad("'" + lines_[next_] + "' where a '" + std::string(keyword) + "' line belongs");
    ++next_;
    return w;
}

UsageError StateReader::bad(const std::string& why) const {
    return UsageError("shard '" + where_ + "': " + why);
}

std::uint64_t StateReader::u64(const std::string& word) const {
    if (const auto v = to_u64(word)) return *v;
    throw bad("'" + word + "' is not a count");
}

std::int64_t StateReader::i64(const std::string& word) const {
    std::int64_t v = 0;
    const auto r = std::from_chars(word.data(), word.data() + word.size(), v);
    if (word.empty() || r.ec != std::errc{} || r.ptr != word.data() + word.size())
        throw bad("'" + word + "' is not a whole number");
    return v;
}

std::pair<std::int32_t, std::uint64_t> StateReader::pair(const std::string& word) const {
    const auto colon = word.find(':');
    const auto v = colon == std::string::npos
                       ? std::nullopt
                       : parse_integer(word.substr(0, colon), INT32_MIN, INT32_MAX);
    const auto c = colon == std::string::npos ? std::nullopt : to_u64(word.substr(colon + 1));
    if (!v || !c) throw bad("'" + word + "' is not VALUE:COUNT");
    return {static_cast<std::int32_t>(*v), *c};
}

void write_state(std::vector<std::string>& lines, const Tally& t) {
    lines.push_back("tally " + std::to_string(t.playouts()) + " " +
                    std::to_string(t.metric_count()) + " " + std::to_string(t.survivals().size()));
    for (std::size_t m = 0; m < t.metric_count(); ++m) {
        std::string l = "metric " + std::to_string(m);
        const auto c = t.counts(m);
        for (std::size_t i = 0; i < c.size(); ++i)
            if (c[i])
                l += ' ' + std::to_string(t.lo(m) + static_cast<std::int32_t>(i)) + ':' +
                     std::to_string(c[i]);
        lines.push_back(std::move(l));
    }
    for (std::size_t k = 0; k < t.survivals().size(); ++k) {
        std::string l = "event " + std::to_string(k);
        const auto e = t.events(k);
        const std::int32_t lo = t.lo(static_cast<std::size_t>(t.survivals()[k].time));
        for (std::size_t i = 0; i < e.size(); ++i)
            if (e[i])
                l += ' ' + std::to_string(lo + static_cast<std::int32_t>(i)) + ':' +
                     std::to_string(e[i]);
        lines.push_back(std::move(l));
    }
}

void add_state(StateReader& in, Tally& t) {
    const auto head = in.line("tally");
    if (head.size() != 4 || in.u64(head[2]) != t.metric_count() ||
        in.u64(head[3]) != t.survivals().size())
        throw in.bad("a tally of another shape than this build's (" +
                     std::to_string(t.metric_count()) + " metrics)");
    const std::uint64_t playouts = in.u64(head[1]);
    if (playouts > ~std::uint64_t{0} - t.playouts())
        throw in.bad("its " + std::to_string(playouts) + " playouts overflow the sum's 64 bits");
    t.add_playouts(playouts);
    for (std::size_t m = 0; m < t.metric_count(); ++m) {
        const auto w = in.line("metric");
        if (w.size() < 2 || in.u64(w[1]) != m) throw in.bad("metric lines out of order");
        std::uint64_t total = 0;
        for (std::size_t i = 2; i < w.size(); ++i) {
            const auto [v, c] = in.pair(w[i]);
            if (c > playouts - total)  // also what would overflow 64 bits
                throw in.bad("metric " + std::to_string(m) + " counts more than its " +
                             std::to_string(playouts) + " playouts");
            if (!t.add_count(m, v, c))
                throw in.bad("metric " + std::to_string(m) + ": value " + std::to_string(v) +
                             " is outside its range");
            total += c;
        }
        if (total != playouts)
            throw in.bad("metric " + std::to_string(m) + " counts " + std::to_string(total) +
                         " playouts, not " + std::to_string(playouts));
    }
    for (std::size_t k = 0; k < t.survivals().size(); ++k) {
        const auto w = in.line("event");
        if (w.size() < 2 || in.u64(w[1]) != k) throw in.bad("event lines out of order");
        std::uint64_t events = 0;  // each playout ends by the event at most once
        for (std::size_t i = 2; i < w.size(); ++i) {
            const auto [v, c] = in.pair(w[i]);
            if (c > playouts - events)
                throw in.bad("event " + std::to_string(k) + " counts more than its " +
                             std::to_string(playouts) + " playouts");
            events += c;
            if (!t.add_event(k, v, c))
                throw in.bad("event " + std::to_string(k) + ": time " + std::to_string(v) +
                             " is outside its range");
        }
    }
}

// ---- shard files ----

std::string shard_text(const Shard& s) {
    std::string t = std::string(kMagic) + "\nodds_version " + s.odds_version + "\ncommand " +
                    s.command + "\ngame " + s.game + "\nrules_version " + s.rules_version +
                    "\nseed " + std::to_string(s.seed) + "\nplayouts " +
                    std::to_string(s.playouts) + '\n';
    for (const auto& a : s.args) t += "arg " + a + '\n';
    std::uint64_t units = 0;
    for (const auto& j : s.jobs) units += j.chunks;
    t += "shard " + std::to_string(s.index) + ' ' + std::to_string(s.count) + "\nunits " +
         std::to_string(s.first) + ' ' + std::to_string(s.last) + ' ' + std::to_string(units) +
         "\npartial " + (s.partial ? "1" : "0") + '\n';
    for (std::size_t j = 0; j < s.jobs.size(); ++j) {
        t += "job " + std::to_string(s.jobs[j].chunks) + ' ' +
             std::to_string(s.jobs[j].chunk_size) + "\nscenario " + s.jobs[j].scenario +
             "\npolicy " + s.jobs[j].policy + '\n';
        for (const auto& l : s.states[j]) t += "state " + l + '\n';
    }
    return t + "crc32 " + hex8(crc32_of(t)) + '\n';
}

Shard read_shard(std::string_view text, std::string source) {
    const auto bad = [&](const std::string& why) {
        return UsageError("shard '" + source + "': " + why);
    };
    // The checksum first: a truncated or edited file says so before anything else is read.
    if (text.substr(0, kMagic.size()) != kMagic) throw bad("not an odds shard file");
    const auto last = text.rfind("\ncrc32 ");
    if (last == std::string_view::npos || text.back() != '\n')
        throw bad("truncated (no checksum line at its end)");
    const std::string_view body = text.substr(0, last + 1);
    const std::string_view sum = text.substr(last + 7, text.size() - last - 8);
    if (sum != hex8(crc32_of(body)))
        throw bad("its checksum disagrees with its content (crc32 " + std::string(sum) +
                  ", content " + hex8(crc32_of(body)) + "): truncated or edited");

    Shard s;
    s.source = std::move(source);
    std::istringstream in{std::string(body)};
    std::string line;
    std::getline(in, line);  // the magic
    std::uint64_t units = 0;
    while (std::getline(in, line)) {
        const auto sp = line.find(' ');
        const std::string key = line.substr(0, sp);
        const std::string rest = sp == std::string::npos ? "" : line.substr(sp + 1);
        const auto number = [&] {
            if (const auto v = to_u64(rest)) return *v;
            throw bad("'" + line + "' is not " + key + " N");
        };
        if (key == "odds_version")
            s.odds_version = rest;
        else if (key == "command")
            s.command = rest;
        else if (key == "game")
            s.game = rest;
        else if (key == "rules_version")
            s.rules_version = rest;
        else if (key == "seed")
            s.seed = number();
        else if (key == "playouts")
            s.playouts = number();
        else if (key == "arg")
            s.args.push_back(rest);
        else if (key == "shard" || key == "units") {
            const auto w = split_words(rest);
            std::vector<std::uint64_t> v;
            for (const auto& x : w)
                if (const auto n = to_u64(x)) v.push_back(*n);
            if (v.size() != (key == "shard" ? 2u : 3u) || v.size() != w.size())
                throw bad("'" + line + "' is malformed");
            if (key == "shard") {
                s.index = v[0];
                s.count = v[1];
            } else {
                s.first = v[0];
                s.last = v[1];
                units = v[2];
            }
        } else if (key == "partial") {
            if (rest != "0" && rest != "1")
                throw bad("'" + line + "' is not partial 0 or partial 1");
            s.partial = rest == "1";
        } else if (key == "job") {
            const auto w = split_words(rest);
            const auto chunks = w.size() == 2 ? to_u64(w[0]) : std::nullopt;
            const auto size = w.size() == 2 ? to_u64(w[1]) : std::nullopt;
            if (!chunks || !size || *size == 0) throw bad("'" + line + "' is not job CHUNKS SIZE");
            s.jobs.push_back({{}, {}, *chunks, *size});
            s.states.emplace_back();
        } else if (key == "scenario" && !s.jobs.empty())
            s.jobs.back().scenario = rest;
        else if (key == "policy" && !s.jobs.empty())
            s.jobs.back().policy = rest;
        else if (key == "state" && !s.jobs.empty())
            s.states.back().push_back(rest);
        else
            throw bad("unknown record '" + key + "'");
    }
    std::uint64_t total = 0;
    for (const auto& j : s.jobs) total += j.chunks;
    if (s.command.empty() || s.game.empty() || s.jobs.empty() || total != units ||
        s.first > s.last || s.last > units || s.index < 1 || s.index > s.count)
        throw bad("its header is incomplete or inconsistent");
    return s;
}

std::vector<Shard> read_shards(const std::string& path) {
    std::error_code ec;
    std::vector<fs::path> files;
    if (fs::is_directory(path, ec)) {
        for (const auto& e : fs::directory_iterator(path, ec)) {
            const std::string name = e.path().filename().string();
            if (name.rfind("shard-", 0) == 0 && e.path().extension() == ".odds")
                files.push_back(e.path());
        }
        if (files.empty())
            throw UsageError("'" + path + "' holds no shard files (shard-I-of-N.odds)");
        std::sort(files.begin(), files.end());
    } else if (fs::is_regular_file(path, ec)) {
        files.emplace_back(path);
    } else {
        throw UsageError("'" + path + "' is neither a folder of shards nor a shard file");
    }
    std::vector<Shard> out;
    for (const auto& f : files) {
        out.push_back(read_shard(read_input_file(f.string(), "shard", kMaxDataFile, kMaxDataLine),
                                 f.string()));
    }
    return out;
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
        StateReader in(s.states[job], s.source);
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
        if (!in.done()) throw in.bad("job " + std::to_string(job) + " has lines left over");
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
