#include "reports/tune_targets.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "engine/rule_options.hpp"
#include "reports/chars.hpp"

namespace odds::tune {

namespace {

constexpr const char* kForms =
    "valid: METRIC=VALUE, 'METRIC within LO..HI', 'METRIC max', 'METRIC min', each with an "
    "optional @WEIGHT";

// A number written alone: no blank before or after it (win= 0.5 and win=0.5\n are slips).
bool read_number(const std::string& s, double& x) {
    const auto v = text_double(s);
    if (!v || !std::isfinite(*v)) return false;
    x = *v;
    return true;
}

[[noreturn]] void bad(const std::string& text, const std::string& why) {
    throw UsageError("--target '" + text + "': " + why + " (" + kForms + ")");
}

// "LO..HI", "LO..", "..HI" into t.lo, t.hi.
void read_within(Target& t, const std::string& spec) {
    const auto dots = spec.find("..");
    if (dots == std::string::npos) bad(t.text, "'" + spec + "' is not LO..HI");
    const std::string lo = spec.substr(0, dots), hi = spec.substr(dots + 2);
    if (lo.empty() && hi.empty()) bad(t.text, "'" + spec + "' has neither LO nor HI");
    if (!lo.empty() && !read_number(lo, t.lo)) bad(t.text, "'" + lo + "' is not a number");
    if (!hi.empty() && !read_number(hi, t.hi)) bad(t.text, "'" + hi + "' is not a number");
    if (t.lo > t.hi) bad(t.text, "LO is above HI");
}

}  // namespace

Target parse_target(const std::string& text) {
    Target t;
    t.text = text;
    // One line of printable text, no blank at either end or before @WEIGHT: the table prints it.
    if (std::any_of(text.begin(), text.end(),
                    [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; }))
        bad(text, "a control character (a line break, a tab) in it");
    if (!text.empty() && (text.front() == ' ' || text.back() == ' '))
        bad(text, "a blank at its start or end");
    if (const auto at = text.rfind('@'); at != std::string::npos && at > 0 && text[at - 1] == ' ')
        bad(text, "a blank before @WEIGHT");
    std::string body = text;
    if (const auto at = text.rfind('@'); at != std::string::npos) {
        const std::string w = text.substr(at + 1);
        if (!read_number(w, t.weight) || t.weight <= 0)
            bad(text, "the weight '" + w + "' is not a number above 0");
        t.weighted = true;
        body = text.substr(0, at);
    }
    const auto eq = body.find('=');
    const auto space = body.find(' ');
    if (eq != std::string::npos && eq > 0) {
        t.metric = body.substr(0, eq);
        const std::string v = body.substr(eq + 1);
        if (!read_number(v, t.value))
            throw UsageError("--target '" + text + "': '" + v +
                             "' is not a number (valid: METRIC=VALUE, 'METRIC within LO..HI', "
                             "'METRIC max', 'METRIC min')");
        return t;
    }
    if (space != std::string::npos && space > 0) {
        t.metric = body.substr(0, space);
        const std::string w = body.substr(space + 1);
        if (w.empty() || w.front() == ' ') bad(text, "more than one blank after the metric");
        if (w == "max" || w == "min") {
            t.kind = w == "max" ? Target::Kind::max : Target::Kind::min;
            return t;
        }
        if (w.rfind("within ", 0) == 0) {
            t.kind = Target::Kind::within;
            read_within(t, w.substr(7));
            return t;
        }
    }
    throw UsageError("--target '" + text +
                     "' is not METRIC=VALUE, 'METRIC within LO..HI', 'METRIC max' or 'METRIC min' "
                     "(e.g. win=0.25)");
}

double Target::distance(double mean) const {
    switch (kind) {
        case Kind::value:
            return std::abs(mean - value);
        case Kind::within:
            return mean < lo ? lo - mean : mean > hi ? mean - hi : 0.0;
        case Kind::max:
            return -mean;
        case Kind::min:
            return mean;
    }
    return 0;
}

std::pair<double, double> Target::distance_range(double low, double high) const {
    double a = distance(low), b = distance(high);
    if (a > b) std::swap(a, b);
    // Inside [low, high] the distance may reach 0 (a value target, or the interval).
    if (kind == Kind::value && low <= value && value <= high) a = 0;
    if (kind == Kind::within && low <= hi && high >= lo) a = 0;
    return {a, b};
}

bool Target::met(double mean) const {
    if (kind == Kind::value) return std::abs(mean - value) <= 1e-12;
    if (kind == Kind::within) return mean >= lo && mean <= hi;
    return false;
}

double combined_distance(const std::vector<Target>& targets, const std::vector<double>& means) {
    double sum = 0;
    for (std::size_t i = 0; i < targets.size(); ++i)
        sum += targets[i].weight * targets[i].distance(means[i]);
    return sum;
}

std::pair<double, double> combined_range(const std::vector<Target>& targets,
                                         const std::vector<double>& lows,
                                         const std::vector<double>& highs) {
    double a = 0, b = 0;
    for (std::size_t i = 0; i < targets.size(); ++i) {
        const auto [lo, hi] = targets[i].distance_range(lows[i], highs[i]);
        a += targets[i].weight * lo;
        b += targets[i].weight * hi;
    }
    return {a, b};
}

}  // namespace odds::tune
