#include "reports/csv.hpp"

#include "reports/chars.hpp"
#include "reports/schema.hpp"

#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <iomanip>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <system_error>

namespace odds {

std::string csv_field(std::string_view s) {
    if (s.find_first_of(",\"\n\r") == std::string_view::npos) return std::string(s);
    std::string q = "\"";
    for (char c : s) {
        if (c == '"') q += '"';
        q += c;
    }
    return q + '"';
}

std::string format_double(double v) {
    if (std::isnan(v)) return "";  // unknown: an empty cell
    if (v == 0) return "0";        // no "-0"
    // A whole number is written as a plain integer: the shortest form would write 3000000 as
    // "3e+06", which int() refuses and pandas reads as a float. Other values from 1e-4 up are
    // the shortest fixed form that reads back (0.0006, not the shorter 6e-04); only tinier
    // ones take an exponent (1e-07).
    const bool whole = std::abs(v) < 1e21 && v == std::trunc(v);
    return double_text(v, whole || std::abs(v) >= 1e-4 ? DoubleForm::fixed : DoubleForm::shortest);
}

std::string format_probability(double p) { return format_double(std::clamp(p, 0.0, 1.0)); }

namespace {
std::string method(const RunInfo& i) { return i.exact ? "exact" : "monte_carlo"; }
std::string status(const RunInfo& i) { return i.partial ? "partial" : "complete"; }
// Empty for Monte Carlo; for exact figures the probability whose value is not resolved.
std::string unresolved(const RunInfo& i, double u) {
    return i.exact ? format_probability(u > kNegligible ? u : 0.0) : "";
}
std::string head(const RunInfo& i) {
    return csv_field(i.game) + ',' + csv_field(i.scenario) + ',' + csv_field(i.policy);
}
}  // namespace

std::string summary_csv(const RunInfo& info, const std::vector<Summary>& rows) {
    // mean_low and mean_high come last, after the columns readers already know: the bounds of
    // an exact mean (equal to it when every outcome is resolved); empty for Monte Carlo, whose
    // mean is the sample's and whose uncertainty is ci_low, ci_high.
    std::string s = schema::kSummary.header();
    for (const auto& r : rows) {
        // Exact figures have no seed and no playouts: those cells stay empty.
        s += head(info) + ',' +
             (info.exact ? "," : std::to_string(info.seed) + ',' + std::to_string(info.playouts)) +
             ',' + csv_field(r.metric);
        for (double v : {r.mean, r.stddev, r.ci.low, r.ci.high}) s += ',' + format_double(v);
        for (double v : {r.min, r.p05, r.p25, r.p50, r.p75, r.p95, r.max})
            s += ',' + format_double(v);
        s += ',' + format_double(r.skewness) + ',' + method(info) + ',' + status(info) + ',' +
             unresolved(info, r.unresolved) + ',' +
             (info.exact ? format_double(r.ci.low) + ',' + format_double(r.ci.high) : ",") + '\n';
    }
    return s;
}

std::string distributions_csv(const RunInfo& info, const std::vector<Distribution>& ds) {
    std::string s = schema::kDistributions.header();
    for (const auto& d : ds) {
        const double total = d.total() + (d.unresolved > kNegligible ? d.unresolved : 0.0);
        if (total <= 0) continue;
        std::size_t first = 0, last = d.mass.size();
        while (first < last && d.mass[first] <= 0) ++first;
        while (last > first && d.mass[last - 1] <= 0) --last;
        // Tail sums from the top, so at_least carries no cancellation error.
        std::vector<double> tail(d.mass.size() + 1, 0.0);
        for (std::size_t i = d.mass.size(); i-- > 0;) tail[i] = tail[i + 1] + d.mass[i];
        double cum = 0;
        for (std::size_t i = first; i < last; ++i) {
            cum += d.mass[i];
            s += head(info) + ',' + csv_field(d.spec.name) + ',' +
                 format_double(value_of(d.spec, i)) + ',' +
                 (info.exact ? std::string()
                             : std::to_string(static_cast<std::uint64_t>(d.mass[i]))) +
                 ',' + format_probability(d.mass[i] / total) + ',' +
                 format_probability(cum / total) + ',' + format_probability(tail[i] / total) + ',' +
                 method(info) + ',' + status(info) + ',' + unresolved(info, d.unresolved / total) +
                 '\n';
        }
    }
    return s;
}

std::string survival_csv(const RunInfo& info, const Tally& t, std::span<const MetricSpec> metrics) {
    const auto& svs = t.survivals();
    if (svs.empty()) return {};
    // One table: no subject column; several: a subject column.
    const bool many = svs.size() > 1;
    const std::string status = info.partial ? ",partial\n" : ",complete\n";
    std::string s = schema::kSurvivalHead.header(false) + ',' +
                    (many ? schema::kSurvivalSubject.header(false) + ',' : "") +
                    schema::kSurvival.header();
    for (std::size_t k = 0; k < svs.size(); ++k) {
        const auto& sv = svs[k];
        const auto times = t.counts(static_cast<std::size_t>(sv.time));
        const auto events = t.events(k);
        const std::int32_t lo = t.lo(static_cast<std::size_t>(sv.time));
        std::size_t last = times.size();
        while (last > 0 && times[last - 1] == 0) --last;
        std::uint64_t at_risk = t.playouts();
        // The product in extended precision, rounded once when written: a double product's
        // rounding shows (0.7330000000000001 for 733 of 1000 left).
        long double survival = 1.0L;
        for (std::size_t i = 0; i < last; ++i) {
            const std::uint64_t lost = events[i];
            const std::uint64_t completed = times[i] - events[i];
            if (at_risk > 0)
                survival *=
                    static_cast<long double>(at_risk - lost) / static_cast<long double>(at_risk);
            s += head(info) + ',';
            if (many) s += csv_field(sv.subject) + ',';
            s += csv_field(static_cast<std::size_t>(sv.time) < metrics.size()
                               ? metrics[static_cast<std::size_t>(sv.time)].name
                               : sv.time_name) +
                 ',' + csv_field(sv.event_words) + ',';
            s += std::to_string(lo + static_cast<std::int32_t>(i)) + ',' + std::to_string(at_risk) +
                 ',' + std::to_string(lost) + ',' + std::to_string(completed) + ',' +
                 format_probability(static_cast<double>(survival)) + status;
            at_risk -= times[i];
        }
    }
    return s;
}

std::string survival_csv_exact(const std::vector<double>& lost,
                               const std::vector<double>& completed, std::int32_t lo) {
    std::string s = "step,at_risk,lost,completed,survival,status\n";
    std::size_t last = lost.size();
    while (last > 0 && lost[last - 1] <= 0 && (last > completed.size() || completed[last - 1] <= 0))
        --last;
    // at_risk as tail sums from the end (no cancellation: the last step's is its own mass, so a
    // law that ends there ends at survival exactly 0), in extended precision; the product too,
    // each rounded once when written.
    const auto c = [&](std::size_t i) { return i < completed.size() ? completed[i] : 0.0; };
    std::vector<long double> at_risk(last + 1, 0.0L);
    for (std::size_t i = lost.size(); i-- > 0;) {
        const long double here = static_cast<long double>(lost[i]) + c(i);
        if (i < last)
            at_risk[i] = at_risk[i + 1] + here;
        else
            at_risk[last] += here;  // nothing past `last` but zeros
    }
    long double survival = 1.0L;
    for (std::size_t i = 0; i < last; ++i) {
        if (at_risk[i] > 0) survival *= (at_risk[i] - lost[i]) / at_risk[i];
        s += std::to_string(lo + static_cast<std::int32_t>(i)) + ',' +
             format_probability(static_cast<double>(at_risk[i])) + ',' +
             format_probability(lost[i]) + ',' + format_probability(c(i)) + ',' +
             format_probability(static_cast<double>(survival)) + ",complete\n";
    }
    return s;
}

std::string survival_csv_described(const RunInfo& info, std::string_view step_metric,
                                   std::string_view event, std::string_view table) {
    std::string s;
    bool header = true;
    while (!table.empty()) {
        const std::size_t end = table.find('\n');
        const std::string_view line = table.substr(0, end);
        s += header ? schema::kSurvivalHead.header(false) + ',' +
                          std::string(schema::kSurvival["step_metric"]) + ',' +
                          std::string(schema::kSurvival["event"])
                    : head(info) + ',' + csv_field(step_metric) + ',' + csv_field(event);
        s += ',';
        s += line;
        s += '\n';
        header = false;
        if (end == std::string_view::npos) break;
        table.remove_prefix(end + 1);
    }
    return s;
}

void print_table(std::ostream& os, const RunInfo& info, const std::vector<Summary>& rows) {
    os << info.game << " | " << info.scenario << " | policy " << info.policy;
    if (info.exact)
        os << " | exact\n";
    else
        os << " | seed " << info.seed << " | " << info.playouts << " playouts"
           << (info.partial ? " (PARTIAL: interrupted)" : "") << '\n';
    std::ostringstream t;
    // Exact figures have no sampling interval: the column gives the bounds the unresolved mass
    // allows (the value itself when there is none), and an unknown mean shows as "?".
    t << std::left << std::setw(18) << "metric" << std::right << std::setw(11) << "mean"
      << std::setw(25) << (info.exact ? "bounds" : "95% CI") << std::setw(10) << "stddev";
    for (const char* q : {"min", "p05", "p25", "p50", "p75", "p95", "max"}) t << std::setw(6) << q;
    t << '\n';
    const int digits = info.exact ? 6 : 4;
    for (const auto& r : rows) {
        std::ostringstream ci;
        if (std::isnan(r.ci.low) || std::isnan(r.ci.high))
            ci << '?';  // nothing played (a run stopped in its first chunk)
        else
            ci << std::fixed << std::setprecision(digits) << '[' << r.ci.low << ", " << r.ci.high
               << ']';
        t << std::left << std::setw(18) << r.metric << std::right << std::fixed
          << std::setprecision(digits) << std::setw(11);
        if (std::isnan(r.mean))
            t << "?";
        else
            t << r.mean;
        t << std::setw(25) << ci.str() << std::setw(10);
        if (std::isnan(r.stddev))
            t << "?";
        else
            t << r.stddev;
        for (double v : {r.min, r.p05, r.p25, r.p50, r.p75, r.p95, r.max})
            t << std::setw(6)
              << (std::isnan(v)        ? std::string("?")
                  : v == std::floor(v) ? std::to_string(static_cast<long>(v))
                                       : format_double(v));
        if (r.unresolved > kNegligible) t << "   (" << r.unresolved << " unresolved)";
        t << '\n';
    }
    os << t.str();
}

namespace {
// A device (/dev/null, /dev/stdout) or a FIFO: written in place, never replaced by a rename. As
// root, write-then-rename onto /dev/null would replace the device with a regular file (issue 30).
bool special_file(const std::filesystem::path& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

void write_in_place(const std::filesystem::path& path, std::string_view content) {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f)
        throw std::system_error(errno, std::generic_category(), "cannot write " + path.string());
    const bool ok =
        std::fwrite(content.data(), 1, content.size(), f) == content.size() && std::fflush(f) == 0;
    const int err = errno;
    if (std::fclose(f) != 0 || !ok)
        throw std::system_error(err, std::generic_category(), "cannot write " + path.string());
}
}  // namespace

namespace {
thread_local bool g_holding = false;
thread_local sigset_t g_held_from;  // the mask before hold_signals
}  // namespace

void hold_signals() {
    if (g_holding) return;
    sigset_t block;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    if (::pthread_sigmask(SIG_BLOCK, &block, &g_held_from) == 0) g_holding = true;
}

void release_held_signals() {
    if (!g_holding) return;
    g_holding = false;
    ::pthread_sigmask(SIG_SETMASK, &g_held_from, nullptr);
}

void write_files_atomic(const std::vector<std::pair<std::filesystem::path, std::string>>& files) {
    hold_signals();
    if (std::any_of(files.begin(), files.end(),
                    [](const auto& f) { return special_file(f.first); })) {
        std::vector<std::pair<std::filesystem::path, std::string>> regular;
        for (const auto& [path, content] : files)
            if (special_file(path))
                write_in_place(path, content);
            else
                regular.emplace_back(path, content);
        return write_files_atomic(regular);
    }
    std::vector<std::filesystem::path> temps;
    auto cleanup = [&] {
        for (const auto& t : temps) std::remove(t.c_str());
    };
    for (const auto& [path, content] : files) {
        auto tmp = path;
        tmp += ".tmp." + std::to_string(::getpid());
        std::FILE* f = std::fopen(tmp.c_str(), "wb");
        if (!f) {
            const int err = errno;
            cleanup();
            throw std::system_error(err, std::generic_category(), "cannot write " + tmp.string());
        }
        temps.push_back(tmp);
        const bool ok = std::fwrite(content.data(), 1, content.size(), f) == content.size() &&
                        std::fflush(f) == 0 && ::fsync(::fileno(f)) == 0;
        const int err = errno;
        std::fclose(f);
        if (!ok) {
            cleanup();
            throw std::system_error(err, std::generic_category(), "cannot write " + tmp.string());
        }
    }
    for (std::size_t i = 0; i < files.size(); ++i) {
        std::error_code ec;
        std::filesystem::rename(temps[i], files[i].first, ec);
        if (ec) {
            cleanup();
            throw std::system_error(ec, "cannot rename " + temps[i].string());
        }
    }
}

void write_file_atomic(const std::filesystem::path& path, std::string_view content) {
    hold_signals();
    if (special_file(path)) return write_in_place(path, content);
    auto tmp = path;
    tmp += ".tmp." + std::to_string(::getpid());
    std::FILE* f = std::fopen(tmp.c_str(), "wb");
    if (!f) throw std::system_error(errno, std::generic_category(), "cannot write " + tmp.string());
    const bool ok = std::fwrite(content.data(), 1, content.size(), f) == content.size() &&
                    std::fflush(f) == 0 && ::fsync(::fileno(f)) == 0;
    const int err = errno;
    std::fclose(f);
    if (!ok) {
        std::remove(tmp.c_str());
        throw std::system_error(err, std::generic_category(), "cannot write " + tmp.string());
    }
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
    if (ec) {
        std::remove(tmp.c_str());
        throw std::system_error(ec, "cannot rename " + tmp.string() + " to " + path.string());
    }
}

CsvTable parse_csv(std::string_view text) {
    std::vector<std::vector<std::string>> records;
    std::vector<std::string> record;
    std::string field;
    bool quoted = false, any = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"')
                field += text[++i];
            else if (c == '"')
                quoted = false;
            else
                field += c;
            continue;
        }
        any = true;
        if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            record.push_back(std::move(field));
            field.clear();
        } else if (c == '\n' || c == '\r') {
            if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
            record.push_back(std::move(field));
            field.clear();
            records.push_back(std::move(record));
            record.clear();
            any = false;
        } else {
            field += c;
        }
    }
    if (any || !record.empty()) {
        record.push_back(std::move(field));
        records.push_back(std::move(record));
    }
    CsvTable t;
    if (!records.empty()) {
        t.header = std::move(records.front());
        t.rows.assign(std::make_move_iterator(records.begin() + 1),
                      std::make_move_iterator(records.end()));
    }
    return t;
}

bool CsvTable::has(std::string_view column) const {
    return std::find(header.begin(), header.end(), column) != header.end();
}

const std::string& CsvTable::at(std::size_t row, std::string_view column) const {
    static const std::string none;
    const auto it = std::find(header.begin(), header.end(), column);
    if (it == header.end() || row >= rows.size()) return none;
    const auto c = static_cast<std::size_t>(it - header.begin());
    return c < rows[row].size() ? rows[row][c] : none;
}

}  // namespace odds
