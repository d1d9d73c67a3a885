#include "sim/shard_file.hpp"

#include <algorithm>
#include <boost/crc.hpp>
#include <charconv>
#include <cstdio>
#include <filesystem>

#include "engine/line_reader.hpp"

namespace odds::sim {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kMagic = "odds-shard 1";

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

}  // namespace

std::optional<std::uint64_t> to_u64(std::string_view s) {
    std::uint64_t v = 0;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || r.ec != std::errc{} || r.ptr != s.data() + s.size()) return std::nullopt;
    return v;
}

// ---- job states ----

std::vector<std::string> StateReader::line(std::string_view keyword) {
    at_ = std::min(next_, lines_.empty() ? 0 : lines_.size() - 1);
    if (next_ == lines_.size()) throw bad("its state ends before a '" + std::string(keyword) + "'");
    auto w = split_words(lines_[next_]);
    if (w.empty() || w[0] != keyword)
        throw bad("'" + lines_[next_] + "' where a '" + std::string(keyword) + "' line belongs");
    ++next_;
    return w;
}

void StateReader::expect_end(const std::string& why) {
    if (done()) return;
    at_ = next_;
    throw bad(why);
}

UsageError StateReader::bad(const std::string& why) const {
    if (numbers_ && at_ < numbers_->size())
        return LineReader::error_at(where_, (*numbers_)[at_], why);
    return UsageError(where_ + ": " + why);
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

namespace {

// A shard file's text without its checksum line, checked first: a truncated or edited file says
// so before anything else is read.
std::string_view checked_body(std::string_view text, const std::string& source) {
    const auto bad = [&](const std::string& why) { return UsageError(source + ": " + why); };
    if (text.substr(0, kMagic.size()) != kMagic) throw bad("not an odds shard file");
    const auto last = text.rfind("\ncrc32 ");
    if (last == std::string_view::npos || text.back() != '\n')
        throw bad("truncated (no checksum line at its end)");
    const std::string_view body = text.substr(0, last + 1);
    const std::string_view sum = text.substr(last + 7, text.size() - last - 8);
    if (sum != hex8(crc32_of(body)))
        throw bad("its checksum disagrees with its content (crc32 " + std::string(sum) +
                  ", content " + hex8(crc32_of(body)) + "): truncated or edited");
    return body;
}

}  // namespace

Shard read_shard(std::string_view text, std::string source) {
    const std::string_view body = checked_body(text, source);
    Shard s;
    s.source = std::move(source);
    LineReader in(body, s.source, LineReader::Comments::none);
    in.next();  // the magic
    std::uint64_t units = 0;
    while (in.next()) {
        const std::string key(in.word(0));
        const std::string rest(in.value());
        const auto number = [&] {
            if (const auto v = to_u64(rest)) return *v;
            in.fail("'" + std::string(in.text()) + "' is not " + key + " N");
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
            std::vector<std::uint64_t> v;
            for (std::size_t i = 1; i < in.size(); ++i)
                if (const auto n = to_u64(in.word(i))) v.push_back(*n);
            if (v.size() != (key == "shard" ? 2u : 3u) || v.size() + 1 != in.size())
                in.fail("'" + std::string(in.text()) + "' is malformed");
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
                in.fail("'" + std::string(in.text()) + "' is not partial 0 or partial 1");
            s.partial = rest == "1";
        } else if (key == "job") {
            const auto chunks = in.size() == 3 ? to_u64(in.word(1)) : std::nullopt;
            const auto size = in.size() == 3 ? to_u64(in.word(2)) : std::nullopt;
            if (!chunks || !size || *size == 0)
                in.fail("'" + std::string(in.text()) + "' is not job CHUNKS SIZE");
            s.jobs.push_back({{}, {}, *chunks, *size});
            s.states.emplace_back();
            s.state_lines.emplace_back();
        } else if (key == "scenario" && !s.jobs.empty())
            s.jobs.back().scenario = rest;
        else if (key == "policy" && !s.jobs.empty())
            s.jobs.back().policy = rest;
        else if (key == "state" && !s.jobs.empty()) {
            s.states.back().push_back(rest);
            s.state_lines.back().push_back(in.line());
        } else
            in.fail("unknown record '" + key + "'");
    }
    std::uint64_t total = 0;
    for (const auto& j : s.jobs) total += j.chunks;
    if (s.command.empty() || s.game.empty() || s.jobs.empty() || total != units ||
        s.first > s.last || s.last > units || s.index < 1 || s.index > s.count)
        in.fail("its header is incomplete or inconsistent");
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

}  // namespace odds::sim
