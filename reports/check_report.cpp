#include "reports/check_report.hpp"
#include "reports/schema.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "reports/chars.hpp"
#include "reports/csv.hpp"

namespace odds {

const char* verdict_name(Verdict v) {
    switch (v) {
        case Verdict::unchanged:
            return "unchanged";
        case Verdict::tolerated:
            return "tolerated";
        case Verdict::inconclusive:
            return "inconclusive";
        case Verdict::moved:
            return "moved";
    }
    return "moved";
}

const char* target_verdict_name(Verdict v) {
    switch (v) {
        case Verdict::unchanged:
        case Verdict::tolerated:  // not a target's verdict; a target within its margin is met
            return "met";
        case Verdict::inconclusive:
            return "inconclusive";
        case Verdict::moved:
            return "missed";
    }
    return "missed";
}

const char* BaselineCheck::verdict_word(Verdict v) const {
    return targets() ? target_verdict_name(v) : verdict_name(v);
}

int verdict_exit_code(Verdict v) {
    return v == Verdict::moved ? 1 : v == Verdict::inconclusive ? 3 : 0;
}

Verdict exact_verdict(bool counts_match, double shift, std::optional<double> tolerance) {
    if (counts_match) return Verdict::unchanged;
    return tolerance && std::abs(shift) <= *tolerance ? Verdict::tolerated : Verdict::moved;
}

Verdict statistical_verdict(const ShiftTest& t, std::optional<double> tolerance) {
    const double x = tolerance.value_or(0.0);
    // With no spread (a constant metric) the threshold is 0: any shift beyond X moves.
    if (std::abs(t.diff) > x + t.threshold) return Verdict::moved;
    const bool plain_alarm = t.se > 0 ? std::abs(t.diff) > t.threshold : t.diff != 0;
    return plain_alarm ? Verdict::tolerated : Verdict::unchanged;
}

Verdict BaselineCheck::verdict() const {
    Verdict v = Verdict::unchanged;
    for (const auto& m : metrics)
        if (static_cast<int>(m.verdict) > static_cast<int>(v)) v = m.verdict;
    return v;
}

Verdict overall_verdict(const std::vector<BaselineCheck>& checks) {
    Verdict v = Verdict::unchanged;
    for (const auto& c : checks)
        if (static_cast<int>(c.verdict()) > static_cast<int>(v)) v = c.verdict();
    return v;
}

const char* overall_verdict_word(const std::vector<BaselineCheck>& checks) {
    const Verdict all = overall_verdict(checks);
    bool every_target = !checks.empty();
    for (const auto& c : checks) every_target = every_target && c.targets();
    if (every_target) return target_verdict_name(all);
    // Mixed or baselines only: in the words of a file that has the worst verdict, a baseline's
    // first (a moved balance is the news; "missed" only when no baseline moved).
    for (const auto& c : checks)
        if (!c.targets() && c.verdict() == all) return verdict_name(all);
    for (const auto& c : checks)
        if (c.verdict() == all) return c.verdict_word(all);
    return verdict_name(all);
}

namespace {

constexpr char32_t kReplacement = 0xFFFD;

// Calls f(code point, its bytes) for each UTF-8 sequence of `text`; a malformed byte (a stray
// continuation, a truncated or overlong sequence, a surrogate, beyond U+10FFFF) comes as one
// U+FFFD in its place.
template <class F>
void for_each_code_point(std::string_view text, F f) {
    static constexpr std::string_view kReplacementBytes = "\xEF\xBF\xBD";
    std::size_t i = 0;
    while (i < text.size()) {
        const auto b = static_cast<unsigned char>(text[i]);
        std::size_t len = 0;
        char32_t cp = 0, min = 0;
        if (b < 0x80)
            len = 1, cp = b;
        else if ((b & 0xE0) == 0xC0)
            len = 2, cp = b & 0x1Fu, min = 0x80;
        else if ((b & 0xF0) == 0xE0)
            len = 3, cp = b & 0x0Fu, min = 0x800;
        else if ((b & 0xF8) == 0xF0)
            len = 4, cp = b & 0x07u, min = 0x10000;
        bool ok = len > 0 && i + len <= text.size();
        for (std::size_t k = 1; ok && k < len; ++k) {
            const auto c = static_cast<unsigned char>(text[i + k]);
            ok = (c & 0xC0) == 0x80;
            cp = (cp << 6) | (c & 0x3Fu);
        }
        ok = ok && cp >= min && cp <= 0x10FFFF && !(cp >= 0xD800 && cp <= 0xDFFF);
        if (ok) {
            f(cp, text.substr(i, len));
            i += len;
        } else {
            f(kReplacement, kReplacementBytes);
            i += 1;
        }
    }
}

std::string fmt(double v) { return double_text_general(v, 4); }

// The words a failure's message gives: the shift and what it had to stay within.
std::string failure_message(const BaselineCheck& b, const MetricCheck& m) {
    if (!m.reported) return m.name + " moved: this build no longer reports it";
    if (m.sequential) {
        const auto& q = *m.sequential;
        return m.name + " " + b.verdict_word(m.verdict) + ": LLR " + fmt(q.llr) + " against [" +
               fmt(q.lower) + ", " + fmt(q.upper) + "] after " + std::to_string(q.playouts) +
               " playouts";
    }
    std::string s = m.name + " moved: shift " + fmt(m.shift);
    if (b.exact) {
        s += ", counts differ: the kernel plays differently";
        if (m.tolerance) s += " (beyond the tolerance " + fmt(*m.tolerance) + ")";
    } else {
        const double x = m.tolerance.value_or(0.0);
        s += ", alarm above " + fmt(x + m.threshold.value_or(0.0));
        if (m.tolerance)
            s += " (tolerance " + fmt(x) + " + threshold " + fmt(m.threshold.value_or(0.0)) + ")";
        if (m.detectable) s += "; detectable " + fmt(*m.detectable);
    }
    return s;
}

std::string seconds(double s) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", s);
    return buf;
}

std::string interval_json(const Summary& s) {
    return "{\"mean\": " + json_number(s.mean) + ", \"ci_low\": " + json_number(s.ci.low) +
           ", \"ci_high\": " + json_number(s.ci.high) + "}";
}

std::string optional_json(const std::optional<double>& v) { return v ? json_number(*v) : "null"; }

std::string mode_name(const BaselineCheck& b) {
    return !b.mode.empty() ? b.mode : b.exact ? "exact" : "statistical";
}

std::string target_json(const MetricCheck& m) {
    if (!m.target) return "null";
    const auto& t = *m.target;
    const auto bound = [](const std::optional<double>& v) { return v ? json_number(*v) : "null"; };
    return "{\"statistic\": " + json_string(t.statistic) + ", \"value\": " + json_number(t.value) +
           ", \"low\": " + bound(t.low) + ", \"high\": " + bound(t.high) + ", \"margin\": " +
           (m.sequential ? json_number(m.sequential->tolerance) : std::string("null")) + "}";
}

std::string sequential_json(const MetricCheck& m) {
    if (!m.sequential) return "null";
    const auto& q = *m.sequential;
    return "{\"llr\": " + json_number(q.llr) + ", \"lower\": " + json_number(q.lower) +
           ", \"upper\": " + json_number(q.upper) + ", \"tolerance\": " + json_number(q.tolerance) +
           ", \"playouts\": " + std::to_string(q.playouts) +
           ", \"fixed_playouts\": " + (m.target ? "null" : json_number(q.fixed_playouts)) + "}";
}

}  // namespace

std::string xml_escape(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for_each_code_point(text, [&](char32_t cp, std::string_view bytes) {
        switch (cp) {
            case '&':
                out += "&amp;";
                return;
            case '<':
                out += "&lt;";
                return;
            case '>':
                out += "&gt;";
                return;
            case '"':
                out += "&quot;";
                return;
            case '\'':
                out += "&apos;";
                return;
            case '\t':
                out += "&#9;";
                return;  // kept as they are, attributes included
            case '\n':
                out += "&#10;";
                return;
            case '\r':
                out += "&#13;";
                return;
            default:
                break;
        }
        if (cp < 0x20 || cp == 0xFFFE || cp == 0xFFFF)
            out += "\xEF\xBF\xBD";  // not in XML 1.0
        else
            out += bytes;
    });
    return out;
}

std::string json_string(std::string_view text) {
    std::string out = "\"";
    for_each_code_point(text, [&](char32_t cp, std::string_view bytes) {
        switch (cp) {
            case '"':
                out += "\\\"";
                return;
            case '\\':
                out += "\\\\";
                return;
            case '\n':
                out += "\\n";
                return;
            case '\r':
                out += "\\r";
                return;
            case '\t':
                out += "\\t";
                return;
            case '\b':
                out += "\\b";
                return;
            case '\f':
                out += "\\f";
                return;
            default:
                break;
        }
        if (cp < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(cp));
            out += buf;
        } else {
            out += bytes;
        }
    });
    return out + "\"";
}

std::string json_number(double v) {
    // JSON has no NaN or infinity; any other number as the CSV files write it (format_double).
    return std::isfinite(v) ? format_double(v) : "null";
}

std::string check_junit(const std::vector<BaselineCheck>& checks) {
    std::size_t tests = 0, failures = 0, errors = 0;
    double time = 0;
    for (const auto& b : checks) {
        tests += b.metrics.size();
        for (const auto& m : b.metrics) {
            failures += m.verdict == Verdict::moved;
            errors += m.verdict == Verdict::inconclusive;
        }
        time += b.seconds;
    }
    std::ostringstream o;
    o << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<testsuites name=\"odds check\" tests=\"" << tests << "\" failures=\"" << failures
      << "\" errors=\"" << errors << "\" time=\"" << seconds(time) << "\">\n";
    for (const auto& b : checks) {
        std::size_t fails = 0, errs = 0;
        for (const auto& m : b.metrics) {
            fails += m.verdict == Verdict::moved;
            errs += m.verdict == Verdict::inconclusive;
        }
        const std::string mode = mode_name(b);
        o << "  <testsuite name=\"" << xml_escape(b.file) << "\" tests=\"" << b.metrics.size()
          << "\" failures=\"" << fails << "\" errors=\"" << errs << "\" skipped=\"0\" time=\""
          << seconds(b.seconds) << "\">\n    <properties>\n";
        const std::pair<const char*, std::string> props[] = {
            {"game", b.game},
            {"scenario", b.scenario},
            {"policy", b.policy},
            {"mode", mode},
            {"rules_version_baseline", b.rules_baseline},
            {"rules_version_build", b.rules_build},
            {"seed", std::to_string(b.seed)},
            {"playouts", std::to_string(b.playouts)},
        };
        for (const auto& [name, value] : props)
            o << "      <property name=\"" << name << "\" value=\"" << xml_escape(value)
              << "\"/>\n";
        o << "    </properties>\n";
        for (const auto& m : b.metrics) {
            o << "    <testcase classname=\"" << xml_escape(b.file) << "\" name=\""
              << xml_escape(m.name) << "\">\n";
            if (m.verdict == Verdict::moved || m.verdict == Verdict::inconclusive) {
                const char* tag = m.verdict == Verdict::moved ? "failure" : "error";
                o << "      <" << tag << " type=\"" << b.verdict_word(m.verdict) << "\" message=\""
                  << xml_escape(failure_message(b, m)) << "\">"
                  << xml_escape(b.game + " " + mode + " check: " + m.name + " " + m.line) << "</"
                  << tag << ">\n";
            }
            o << "      <system-out>"
              << xml_escape(std::string(b.verdict_word(m.verdict)) + ": " + m.name + " " + m.line)
              << "</system-out>\n    </testcase>\n";
        }
        o << "  </testsuite>\n";
    }
    o << "</testsuites>\n";
    return o.str();
}

std::string check_json(const std::vector<BaselineCheck>& checks, std::string_view odds_version) {
    std::ostringstream o;
    const Verdict all = overall_verdict(checks);
    o << "{\n  \"odds_version\": " << json_string(odds_version) << ",\n  \"verdict\": \""
      << overall_verdict_word(checks) << "\",\n  \"exit_code\": " << verdict_exit_code(all)
      << ",\n  \"baselines\": [";
    for (std::size_t i = 0; i < checks.size(); ++i) {
        const BaselineCheck& b = checks[i];
        o << (i ? "," : "") << "\n    {\n"
          << "      \"file\": " << json_string(b.file) << ",\n"
          << "      \"game\": " << json_string(b.game) << ",\n"
          << "      \"scenario\": " << json_string(b.scenario) << ",\n"
          << "      \"policy\": " << json_string(b.policy) << ",\n"
          << "      \"rules_version\": {\"baseline\": "
          << (b.targets() ? std::string("null") : json_string(b.rules_baseline))
          << ", \"build\": " << json_string(b.rules_build) << "},\n"
          << "      \"mode\": \"" << mode_name(b) << "\",\n"
          << "      \"reason\": " << (b.exact ? std::string("null") : json_string(b.reason))
          << ",\n"
          << "      \"seed\": {\"baseline\": " << b.seed_baseline << ", \"check\": " << b.seed
          << "},\n"
          << "      \"playouts\": {\"baseline\": "
          << (b.targets() ? std::string("null") : std::to_string(b.playouts_baseline))
          << ", \"check\": " << b.playouts << "},\n"
          << "      \"false_alarm_rate\": "
          << (b.exact ? std::string("null") : json_number(b.false_alarm))
          << ",\n      \"seconds\": " << seconds(b.seconds) << ",\n"
          << "      \"verdict\": \"" << b.verdict_word(b.verdict()) << "\",\n"
          << "      \"metrics\": [";
        for (std::size_t k = 0; k < b.metrics.size(); ++k) {
            const MetricCheck& m = b.metrics[k];
            const bool stat = m.reported && m.threshold.has_value();
            o << (k ? "," : "") << "\n        {\"name\": " << json_string(m.name)
              << ", \"kind\": " << json_string(m.kind) << ", \"verdict\": \""
              << b.verdict_word(m.verdict)
              << "\", \"reported\": " << (m.reported ? "true" : "false")
              << ",\n         \"old\": " << interval_json(m.old_s)
              << ",\n         \"new\": " << (m.reported ? interval_json(m.new_s) : "null")
              << ",\n         \"shift\": "
              << (m.reported && !m.target ? json_number(m.shift) : "null") << ", \"counts_match\": "
              << (b.exact && m.reported ? (m.counts_match ? "true" : "false") : "null")
              << ", \"threshold\": " << optional_json(m.threshold) << ", \"alarm_above\": "
              << (stat ? json_number(m.tolerance.value_or(0.0) + *m.threshold) : "null")
              << ", \"detectable\": " << optional_json(m.detectable)
              << ", \"tolerance\": " << optional_json(m.tolerance)
              << ",\n         \"target\": " << target_json(m)
              << ",\n         \"sequential\": " << sequential_json(m) << "}";
        }
        o << "\n      ]\n    }";
    }
    o << "\n  ]\n}\n";
    return o.str();
}

std::string check_csv(const std::vector<BaselineCheck>& checks) {
    const auto opt = [](std::optional<double> v) { return v ? format_double(*v) : std::string(); };
    // statistic .. margin come last, so every earlier column keeps its place.
    std::string s = schema::kCheck.header();
    for (const auto& b : checks)
        for (const auto& m : b.metrics) {
            const bool stat = m.reported && m.threshold.has_value();
            s += csv_field(b.file) + ',' + csv_field(b.game) + ',' + csv_field(b.scenario) + ',' +
                 csv_field(b.policy) + ',' + mode_name(b) + ',' + csv_field(b.rules_baseline) +
                 ',' + csv_field(b.rules_build) + ',' + std::to_string(b.seed) + ',' +
                 std::to_string(b.playouts) + ',' + csv_field(m.name) + ',' + m.kind + ',' +
                 b.verdict_word(m.verdict) + ',' + (m.reported ? "true" : "false") + ',' +
                 format_double(m.old_s.mean) + ',' + format_double(m.old_s.ci.low) + ',' +
                 format_double(m.old_s.ci.high) + ',';
            if (m.reported)
                s += format_double(m.new_s.mean) + ',' + format_double(m.new_s.ci.low) + ',' +
                     format_double(m.new_s.ci.high) + ',' +
                     (m.target ? std::string() : format_double(m.shift)) + ',';
            else
                s += ",,,,";
            s += opt(m.threshold) + ',' +
                 (stat ? format_double(m.tolerance.value_or(0.0) + *m.threshold) : std::string()) +
                 ',' + opt(m.detectable) + ',' + opt(m.tolerance) + ',';
            if (m.target)
                s += m.target->statistic + ',' + format_double(m.target->value) + ',' +
                     opt(m.target->low) + ',' + opt(m.target->high) + ',' +
                     (m.sequential ? format_double(m.sequential->tolerance) : std::string());
            else if (m.reported)
                s += "mean," + format_double(m.new_s.mean) + ",,,";
            else
                s += ",,,,";
            s += '\n';
        }
    return s;
}

}  // namespace odds
