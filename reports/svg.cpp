#include "reports/svg.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>

#include "reports/check_report.hpp"

namespace odds::svg {

std::string escape(std::string_view text) { return xml_escape(text); }

std::string num(double v, int digits) {
    if (std::isnan(v)) return "?";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    if (v == 0) return "0";
    char buf[64];
    const double a = std::abs(v);
    if (a >= 1e9 || a < 1e-4) {
        std::snprintf(buf, sizeof buf, "%.*g", digits, v);
        return buf;
    }
    // Fixed notation with `digits` significant digits, then the trailing zeros dropped.
    const int magnitude = static_cast<int>(std::floor(std::log10(a)));
    const int decimals = std::max(0, digits - 1 - magnitude);
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    std::string s = buf;
    if (s.find('.') != std::string::npos) {
        s.erase(s.find_last_not_of('0') + 1);
        if (s.back() == '.') s.pop_back();
    }
    return s == "-0" ? "0" : s;
}

double LinearScale::operator()(double v) const {
    if (d1 == d0) return (r0 + r1) / 2;
    return r0 + (v - d0) / (d1 - d0) * (r1 - r0);
}

Ticks nice_ticks(double lo, double hi, int target) {
    if (!std::isfinite(lo) || !std::isfinite(hi)) lo = 0, hi = 1;
    if (hi < lo) std::swap(lo, hi);
    target = std::max(target, 1);
    double span = hi - lo;
    if (span == 0) span = lo == 0 ? 1 : std::abs(lo);
    const double raw = span / target;
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    double step = mag;
    for (const double m : {1.0, 2.0, 5.0, 10.0})
        if (raw <= m * mag * 1.0000001) {
            step = m * mag;
            break;
        }
    Ticks t;
    t.step = step;
    double first = std::floor(lo / step + 1e-9) * step;
    double last = std::ceil(hi / step - 1e-9) * step;
    if (first == last) last = first + step;
    for (double v = first; v <= last + step * 1e-6; v += step)
        t.values.push_back(std::abs(v) < step * 1e-9 ? 0.0 : v);
    return t;
}

std::string tick_label(double v, double step) {
    int decimals = 0;
    for (double s = step; decimals < 10 && std::abs(s - std::round(s)) > 1e-9 * std::max(1.0, s);
         s *= 10)
        ++decimals;
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, std::abs(v) < step * 1e-9 ? 0.0 : v);
    return buf;
}

namespace {

constexpr double kWidth = 720;

std::string f1(double v) {  // a coordinate: one decimal is plenty
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", v);
    std::string s = buf;
    if (s.size() > 2 && s.compare(s.size() - 2, 2, ".0") == 0) s.resize(s.size() - 2);
    return s == "-0" ? "0" : s;
}

std::string tip(std::string_view text) { return "<title>" + escape(text) + "</title>"; }

// The drawing's frame: the plot area, the title, and the SVG element around a body.
struct Frame {
    double width = kWidth, height = 360;
    double left = 70, right = 24, top = 56, bottom = 52;
    double x0() const { return left; }
    double x1() const { return width - right; }
    double y0() const { return height - bottom; }  // the bottom of the plot area
    double y1() const { return top; }

    std::string open(std::string_view title) const {
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" role=\"img\" width=\"" +
               f1(width) + "\" height=\"" + f1(height) + "\" viewBox=\"0 0 " + f1(width) + " " +
               f1(height) + "\">" + tip(title) + "<text class=\"title\" x=\"" + f1(width / 2) +
               "\" y=\"20\" text-anchor=\"middle\">" + escape(title) + "</text>";
    }
    // How many rows the legend takes: each entry a swatch and its name, wrapped at the width.
    double legend_rows(const std::vector<std::pair<std::string, std::string>>& entries) const {
        double x = left, rows = entries.empty() ? 0 : 1;
        for (const auto& e : entries) {
            const double w = 30 + 6.6 * static_cast<double>(e.second.size());
            if (x > left && x + w > width - 8) x = left, ++rows;
            x += w;
        }
        return rows;
    }
    // Room under the title for a legend of more than one row: the plot area keeps its size.
    void room_for_legend(const std::vector<std::pair<std::string, std::string>>& entries) {
        const double extra = 14 * std::max(0.0, legend_rows(entries) - 1);
        top += extra;
        height += extra;
    }
    // Legend entries in rows under the title: a swatch of class sN (or the given class) each.
    std::string legend(const std::vector<std::pair<std::string, std::string>>& entries) const {
        std::string s = "<g class=\"legend\">";
        double x = left, row = 0;
        for (const auto& [cls, name] : entries) {
            const double w = 30 + 6.6 * static_cast<double>(name.size());
            if (x > left && x + w > width - 8) x = left, row += 14;  // wraps to a second row
            if (cls.find("line") != std::string::npos)
                s += "<line class=\"" + cls + "\" x1=\"" + f1(x) + "\" y1=\"" + f1(35 + row) +
                     "\" x2=\"" + f1(x + 14) + "\" y2=\"" + f1(35 + row) + "\"/>";
            else if (cls == "censor")
                s += "<path class=\"censor\" d=\"M" + f1(x + 3) + " " + f1(35 + row) + "h8M" +
                     f1(x + 7) + " " + f1(31 + row) + "v8\"/>";
            else
                s += "<rect class=\"" + cls + "\" x=\"" + f1(x) + "\" y=\"" + f1(30 + row) +
                     "\" width=\"14\" height=\"10\"/>";
            s += "<text x=\"" + f1(x + 18) + "\" y=\"" + f1(39 + row) + "\">" + escape(name) +
                 "</text>";
            x += w;
        }
        return s + "</g>";
    }
    std::string x_axis(const LinearScale& sx, const Ticks& t, std::string_view label) const {
        std::string s = "<g class=\"axis x\"><line x1=\"" + f1(x0()) + "\" y1=\"" + f1(y0()) +
                        "\" x2=\"" + f1(x1()) + "\" y2=\"" + f1(y0()) + "\"/>";
        for (double v : t.values) {
            if (v < std::min(sx.d0, sx.d1) - 1e-9 || v > std::max(sx.d0, sx.d1) + 1e-9) continue;
            const double x = sx(v);
            s += "<line x1=\"" + f1(x) + "\" y1=\"" + f1(y0()) + "\" x2=\"" + f1(x) + "\" y2=\"" +
                 f1(y0() + 5) + "\"/><text x=\"" + f1(x) + "\" y=\"" + f1(y0() + 18) +
                 "\" text-anchor=\"middle\">" + tick_label(v, t.step) + "</text>";
        }
        return s + "<text class=\"label\" x=\"" + f1((x0() + x1()) / 2) + "\" y=\"" +
               f1(height - 10) + "\" text-anchor=\"middle\">" + escape(label) + "</text></g>";
    }
    // A y axis at the left (or the right), with grid lines from the left one.
    // log10: the ticks are decades (powers of ten), labelled 0.001, 0.01, ...
    std::string y_axis(const LinearScale& sy, const Ticks& t, std::string_view label,
                       bool at_right = false, bool log10 = false) const {
        const double x = at_right ? x1() : x0();
        std::string s = std::string("<g class=\"axis y") + (at_right ? " right" : "") +
                        "\"><line x1=\"" + f1(x) + "\" y1=\"" + f1(y0()) + "\" x2=\"" + f1(x) +
                        "\" y2=\"" + f1(y1()) + "\"/>";
        for (double v : t.values) {
            if (v < std::min(sy.d0, sy.d1) - 1e-12 || v > std::max(sy.d0, sy.d1) + 1e-12) continue;
            const double y = sy(v);
            if (!at_right)
                s += "<line class=\"grid\" x1=\"" + f1(x0()) + "\" y1=\"" + f1(y) + "\" x2=\"" +
                     f1(x1()) + "\" y2=\"" + f1(y) + "\"/>";
            s += "<line x1=\"" + f1(x) + "\" y1=\"" + f1(y) + "\" x2=\"" +
                 f1(at_right ? x + 5 : x - 5) + "\" y2=\"" + f1(y) + "\"/><text x=\"" +
                 f1(at_right ? x + 8 : x - 8) + "\" y=\"" + f1(y + 4) + "\" text-anchor=\"" +
                 (at_right ? "start" : "end") + "\">" +
                 (log10 ? num(std::pow(10.0, v)) : tick_label(v, t.step)) + "</text>";
        }
        const double lx = at_right ? width - 12 : 16, ly = (y0() + y1()) / 2;
        return s + "<text class=\"label\" x=\"" + f1(lx) + "\" y=\"" + f1(ly) +
               "\" text-anchor=\"middle\" transform=\"rotate(" + (at_right ? "90 " : "-90 ") +
               f1(lx) + " " + f1(ly) + ")\">" + escape(label) + "</text></g>";
    }
};

std::string close() { return "</svg>"; }

double min_gap(const std::vector<double>& x) {
    double gap = std::numeric_limits<double>::infinity();
    for (std::size_t i = 1; i < x.size(); ++i)
        if (x[i] > x[i - 1]) gap = std::min(gap, x[i] - x[i - 1]);
    return std::isfinite(gap) ? gap : 1.0;
}

}  // namespace

Law binned(const Law& law, std::size_t most) {
    if (law.x.size() <= most) return law;
    const std::size_t per = (law.x.size() + most - 1) / most;
    Law b;
    b.name = law.name;
    b.unresolved = law.unresolved;
    for (std::size_t i = 0; i < law.x.size(); i += per) {
        const std::size_t end = std::min(law.x.size(), i + per);
        double p = 0;
        for (std::size_t k = i; k < end; ++k) p += law.p[k];
        b.x.push_back(law.x[i]);
        b.p.push_back(p);
        b.at_least.push_back(law.at_least[i]);
        b.tips.push_back("values " + num(law.x[i]) + " to " + num(law.x[end - 1]));
    }
    return b;
}

namespace {
// The "at least" curve of law k: black over the first law's blue bars, vermillion dashed for
// the second law (drawn as orange marks), so every curve stands out from the bars under it.
std::string line_class(std::size_t k) { return k == 0 ? "s6 line" : "s5 line dashed"; }
}  // namespace

std::string distribution_chart(std::string_view title, std::string_view x_label,
                               const std::vector<Law>& in) {
    std::vector<Law> laws;
    for (const auto& l : in) laws.push_back(binned(l, kMostBars));
    Frame f;
    f.right = 64;
    double lo = 0, hi = 1, pmax = 0;
    bool any = false;
    std::vector<double> all;
    for (const auto& l : laws)
        for (std::size_t i = 0; i < l.x.size(); ++i) {
            lo = any ? std::min(lo, l.x[i]) : l.x[i];
            hi = any ? std::max(hi, l.x[i]) : l.x[i];
            any = true;
            pmax = std::max(pmax, l.p[i]);
            all.push_back(l.x[i]);
        }
    std::sort(all.begin(), all.end());
    const double gap = min_gap(all);
    // One value holding most of the mass (Bosconian's damage: 96% at the hull) would leave the
    // others as invisible slivers: then P(X = x) is drawn on a log scale, decades down to the
    // smallest value's (at most 8 of them), so every value's bar shows.
    bool log_scale = false;
    double lmin = 0;
    if (!laws.empty()) {
        std::vector<double> ps;
        for (double p : laws.front().p)
            if (p > 0) ps.push_back(p);
        std::sort(ps.rbegin(), ps.rend());
        log_scale = ps.size() >= 5 && ps[0] >= 0.5 && ps[1] < ps[0] / 10;
        if (log_scale) {
            double smallest = ps.back();
            for (const auto& l : laws)
                for (double p : l.p)
                    if (p > 0) smallest = std::min(smallest, p);
            lmin = std::max(std::floor(std::log10(smallest)), -8.0);
        }
    }
    std::vector<std::pair<std::string, std::string>> legend;
    for (std::size_t k = 0; k < laws.size(); ++k) {
        legend.emplace_back("s" + std::to_string(k), laws[k].name + ": P(X = x)");
        if (laws[k].unresolved > 0) {
            // An exact law with unresolved mass: P(X >= x) is known only within bounds.
            legend.emplace_back(line_class(k),
                                laws[k].name + ": P(X ≥ x) at least (a lower bound)");
            legend.emplace_back("band", laws[k].name + ": P(X ≥ x) lies in the band (" +
                                            num(laws[k].unresolved, 3) + " unresolved)");
        } else {
            legend.emplace_back(line_class(k), laws[k].name + ": P(X ≥ x)");
        }
    }
    f.room_for_legend(legend);
    const LinearScale sx{lo - gap / 2, hi + gap / 2, f.x0(), f.x1()};
    Ticks py = nice_ticks(0, pmax > 0 ? pmax : 1, 5);
    if (log_scale) {
        py = Ticks{{}, 1};
        for (double v = lmin; v <= 0; ++v) py.values.push_back(v);
    }
    const LinearScale sy_lin{0, py.values.back(), f.y0(), f.y1()};
    const LinearScale sy_log{lmin, 0, f.y0(), f.y1()};
    const auto sy = [&](double p) {
        if (!log_scale) return sy_lin(p);
        return p > 0 ? sy_log(std::max(lmin, std::log10(p))) : f.y0();
    };
    const LinearScale sa{0, 1, f.y0(), f.y1()};
    std::string s =
        f.open(log_scale ? std::string(title) + " (P(X = x) on a log scale)" : std::string(title));
    s += f.legend(legend);
    s += log_scale ? f.y_axis(sy_log, py, "P(X = x), log scale", false, true)
                   : f.y_axis(sy_lin, py, "P(X = x)");
    s += f.y_axis(sa, nice_ticks(0, 1, 5), "P(X ≥ x), at least", true);
    s += f.x_axis(sx, nice_ticks(sx.d0, sx.d1, 8), x_label);
    const double bar = std::max(1.0, (sx(gap) - sx(0)) * 0.8);
    for (std::size_t k = 0; k < laws.size(); ++k) {
        const Law& l = laws[k];
        const std::string cls = "s" + std::to_string(k);
        s += "<g class=\"" + cls + (k == 0 ? " bars" : " marks") + "\">";
        for (std::size_t i = 0; i < l.x.size(); ++i) {
            const std::string hover =
                l.name + ": x = " + num(l.x[i]) + ", P(X = x) = " + num(l.p[i]) +
                ", P(X ≥ x) = " + num(l.at_least[i]) +
                (i < l.tips.size() && !l.tips[i].empty() ? "; " + l.tips[i] : "");
            const double x = sx(l.x[i]), y = sy(l.p[i]);
            if (k == 0)
                s += "<rect x=\"" + f1(x - bar / 2) + "\" y=\"" + f1(y) + "\" width=\"" + f1(bar) +
                     "\" height=\"" + f1(f.y0() - y) + "\">" + tip(hover) + "</rect>";
            else
                s += "<path d=\"M" + f1(x) + " " + f1(y - 5) + "l5 5-5 5-5-5z\">" + tip(hover) +
                     "</path>";
        }
        s += "</g>";
        if (l.unresolved > 0) {  // the band between the lower bound and lower bound + unresolved
            std::string top, bottom;
            const double w = sx(gap) - sx(0);
            for (std::size_t i = 0; i < l.x.size(); ++i) {
                const double xl = sx(l.x[i]) - w / 2;
                top += f1(xl) + "," + f1(sa(std::min(1.0, l.at_least[i] + l.unresolved))) + " " +
                       f1(xl + w) + "," + f1(sa(std::min(1.0, l.at_least[i] + l.unresolved))) + " ";
            }
            for (std::size_t i = l.x.size(); i-- > 0;) {
                const double xl = sx(l.x[i]) - w / 2;
                bottom += f1(xl + w) + "," + f1(sa(l.at_least[i])) + " " + f1(xl) + "," +
                          f1(sa(l.at_least[i])) + " ";
            }
            s += "<polygon class=\"band\" points=\"" + top + bottom + "\">" +
                 tip(l.name + ": P(X ≥ x) is at least the line, at most " + num(l.unresolved, 3) +
                     " above it") +
                 "</polygon>";
        }
        s += "<polyline class=\"" + line_class(k) + "\" points=\"";
        for (std::size_t i = 0; i < l.x.size(); ++i) {
            // P(X >= x) holds from the bar's left edge: a step down after each value.
            const double xl = sx(l.x[i]) - (sx(gap) - sx(0)) / 2, y = sa(l.at_least[i]);
            s += f1(xl) + "," + f1(y) + " " + f1(xl + (sx(gap) - sx(0))) + "," + f1(y) + " ";
        }
        s += "\"/>";
    }
    return s + close();
}

std::string survival_chart(std::string_view title, std::string_view x_label,
                           std::string_view y_label, const std::vector<Survival>& curves) {
    Frame f;
    double lo = 0, hi = 1;
    bool any = false;
    for (const auto& c : curves)
        for (double x : c.step) {
            lo = any ? std::min(lo, x) : x;
            hi = any ? std::max(hi, x) : x;
            any = true;
        }
    if (hi <= lo) hi = lo + 1;
    std::vector<std::pair<std::string, std::string>> legend;
    for (std::size_t k = 0; k < curves.size(); ++k)
        legend.emplace_back("s" + std::to_string(k % 7) + " line", curves[k].name);
    legend.emplace_back("censor", "censored (+)");
    f.room_for_legend(legend);
    const Ticks tx = nice_ticks(lo, hi, 8);
    const LinearScale sx{lo, hi, f.x0(), f.x1()};
    const LinearScale sy{0, 1, f.y0(), f.y1()};
    std::string s = f.open(title);
    s += f.legend(legend);
    s += f.y_axis(sy, nice_ticks(0, 1, 5), y_label);
    s += f.x_axis(sx, tx, x_label);
    for (std::size_t k = 0; k < curves.size(); ++k) {
        const Survival& c = curves[k];
        const std::string cls = "s" + std::to_string(k % 7);
        std::string pts = f1(sx(c.step.empty() ? lo : c.step.front())) + "," + f1(sy(1)) + " ";
        std::string marks;
        for (std::size_t i = 0; i < c.step.size(); ++i) {
            const double x = sx(c.step[i]), y = sy(c.survival[i]);
            pts += f1(x) + "," + f1(i ? sy(c.survival[i - 1]) : sy(1)) + " " + f1(x) + "," + f1(y) +
                   " ";
            if (i + 1 < c.step.size()) pts += f1(sx(c.step[i + 1])) + "," + f1(y) + " ";
            const std::string hover =
                c.name + ": step " + num(c.step[i]) + ", survival " + num(c.survival[i]) +
                (i < c.censored.size() && c.censored[i] ? " (some censored)" : "");
            if (i < c.censored.size() && c.censored[i])
                marks += "<path class=\"censor\" d=\"M" + f1(x - 4) + " " + f1(y) + "h8M" + f1(x) +
                         " " + f1(y - 4) + "v8\">" + tip(hover) + "</path>";
            marks += "<circle class=\"hit\" cx=\"" + f1(x) + "\" cy=\"" + f1(y) + "\" r=\"3\">" +
                     tip(hover) + "</circle>";
        }
        s += "<g class=\"" + cls + "\"><polyline class=\"" + cls + " line\" points=\"" + pts +
             "\"/>" + marks + "</g>";
    }
    return s + close();
}

std::string forest_chart(std::string_view title, std::string_view x_label,
                         const std::vector<ForestRow>& rows, std::optional<double> reference,
                         std::optional<Band> band, const std::vector<std::string>& legend) {
    Frame f;
    std::size_t longest = 4;
    for (const auto& r : rows) longest = std::max(longest, r.label.size());
    f.left = std::min(300.0, 24 + 7.2 * static_cast<double>(longest));
    f.right = 70;
    const double row_h = 26;
    f.height =
        f.top + f.bottom + row_h * static_cast<double>(std::max<std::size_t>(rows.size(), 1));
    std::vector<std::pair<std::string, std::string>> entries;
    for (std::size_t k = 0; k < legend.size(); ++k)
        if (!legend[k].empty()) entries.emplace_back("s" + std::to_string(k % 7), legend[k]);
    if (band) entries.emplace_back("band", band->name);
    f.room_for_legend(entries);
    double lo = reference.value_or(std::numeric_limits<double>::infinity());
    double hi = reference.value_or(-std::numeric_limits<double>::infinity());
    for (const auto& r : rows)
        for (double v : {r.low, r.high, r.value})
            if (std::isfinite(v)) lo = std::min(lo, v), hi = std::max(hi, v);
    if (band) lo = std::min(lo, band->low), hi = std::max(hi, band->high);
    if (!std::isfinite(lo)) lo = 0, hi = 1;
    if (hi <= lo) lo -= 0.5, hi += 0.5;
    // The margin never takes a scale of non-negative values below 0 (no tick at -10 turns).
    const double from = lo >= 0 ? std::max(0.0, lo - (hi - lo) * 0.02) : lo - (hi - lo) * 0.02;
    const Ticks t = nice_ticks(from, hi + (hi - lo) * 0.02, 6);
    const LinearScale sx{t.values.front(), t.values.back(), f.x0(), f.x1()};
    std::string s = f.open(title);
    if (!entries.empty()) s += f.legend(entries);
    if (band)
        s += "<rect class=\"band\" x=\"" + f1(sx(band->low)) + "\" y=\"" + f1(f.y1()) +
             "\" width=\"" + f1(std::max(1.0, sx(band->high) - sx(band->low))) + "\" height=\"" +
             f1(f.y0() - f.y1()) + "\">" + tip(band->name) + "</rect>";
    s += f.x_axis(sx, t, x_label);
    s += "<line class=\"axis\" x1=\"" + f1(f.x0()) + "\" y1=\"" + f1(f.y1()) + "\" x2=\"" +
         f1(f.x0()) + "\" y2=\"" + f1(f.y0()) + "\"/>";
    if (reference)
        s += "<line class=\"reference\" x1=\"" + f1(sx(*reference)) + "\" y1=\"" + f1(f.y1()) +
             "\" x2=\"" + f1(sx(*reference)) + "\" y2=\"" + f1(f.y0()) + "\"/>";
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const ForestRow& r = rows[i];
        const double y = f.y1() + row_h * (static_cast<double>(i) + 0.5);
        const std::string hover = r.label + ": " + num(r.value) + " [" + num(r.low) + ", " +
                                  num(r.high) + "]" + (r.tip.empty() ? "" : "; " + r.tip);
        s += "<g class=\"row s" + std::to_string(r.colour % 7) + "\">" + tip(hover) +
             "<text class=\"rowlabel\" x=\"" + f1(f.x0() - 8) + "\" y=\"" + f1(y + 4) +
             "\" text-anchor=\"end\">" + escape(r.label) + "</text>";
        if (std::isfinite(r.low) && std::isfinite(r.high))
            s += "<line class=\"interval\" x1=\"" + f1(sx(r.low)) + "\" y1=\"" + f1(y) +
                 "\" x2=\"" + f1(sx(r.high)) + "\" y2=\"" + f1(y) + "\"/>";
        if (std::isfinite(r.value))
            s += "<rect class=\"point\" x=\"" + f1(sx(r.value) - 4) + "\" y=\"" + f1(y - 4) +
                 "\" width=\"8\" height=\"8\"/>";
        if (!r.mark.empty())
            s += "<text class=\"mark\" x=\"" + f1(f.x1() + 8) + "\" y=\"" + f1(y + 4) + "\">" +
                 escape(r.mark) + "</text>";
        s += "</g>";
    }
    return s + close();
}

namespace {
// Viridis at t in [0, 1]: dark blue to yellow, readable in grey and with colour blindness.
std::string viridis(double t) {
    static const double stops[][3] = {
        {68, 1, 84}, {59, 82, 139}, {33, 145, 140}, {94, 201, 98}, {253, 231, 37}};
    t = std::clamp(t, 0.0, 1.0) * 4;
    const int i = std::min(3, static_cast<int>(t));
    const double u = t - i;
    char buf[16];
    std::snprintf(buf, sizeof buf, "#%02x%02x%02x",
                  static_cast<int>(stops[i][0] + u * (stops[i + 1][0] - stops[i][0])),
                  static_cast<int>(stops[i][1] + u * (stops[i + 1][1] - stops[i][1])),
                  static_cast<int>(stops[i][2] + u * (stops[i + 1][2] - stops[i][2])));
    return buf;
}
}  // namespace

std::string heatmap_chart(std::string_view title, std::string_view row_label,
                          std::string_view col_label, const std::vector<std::string>& rows,
                          const std::vector<std::string>& cols,
                          const std::vector<std::vector<double>>& values,
                          const std::vector<std::vector<std::string>>& tips) {
    Frame f;
    std::size_t longest = 4;
    for (const auto& r : rows) longest = std::max(longest, r.size());
    // Names are never cut: rows get the room their longest name needs; column names longer than
    // a cell is wide are written upwards, the head as tall as the longest.
    f.left = 30 + 6.6 * static_cast<double>(longest);
    f.top = 56;
    const double cell =
        std::clamp(560.0 / static_cast<double>(std::max<std::size_t>(cols.size(), 1)), 44.0, 96.0);
    std::size_t longest_col = 0;
    for (const auto& c : cols) longest_col = std::max(longest_col, c.size());
    const bool upright = 6.6 * static_cast<double>(longest_col) > cell - 4;
    const double head = upright ? 16 + 6.6 * static_cast<double>(longest_col) : 30;
    f.width = std::max(kWidth, f.left + cell * static_cast<double>(cols.size()) + 100);
    f.height = f.top + head + cell * static_cast<double>(rows.size()) + 40;
    std::string s = f.open(title);
    const double gx = f.left, gy = f.top + head;
    s += "<text class=\"label\" x=\"" + f1(gx + cell * static_cast<double>(cols.size()) / 2) +
         "\" y=\"" + f1(f.top - 4) + "\" text-anchor=\"middle\">" + escape(col_label) + "</text>";
    s += "<text class=\"label\" x=\"14\" y=\"" +
         f1(gy + cell * static_cast<double>(rows.size()) / 2) +
         "\" text-anchor=\"middle\" transform=\"rotate(-90 14 " +
         f1(gy + cell * static_cast<double>(rows.size()) / 2) + ")\">" + escape(row_label) +
         "</text>";
    for (std::size_t c = 0; c < cols.size(); ++c) {
        const double x = gx + cell * (static_cast<double>(c) + 0.5);
        if (upright)
            s += "<text class=\"colname\" x=\"" + f1(x + 4) + "\" y=\"" + f1(gy - 8) +
                 "\" text-anchor=\"start\" transform=\"rotate(-90 " + f1(x + 4) + " " + f1(gy - 8) +
                 ")\">" + tip(cols[c]) + escape(cols[c]) + "</text>";
        else
            s += "<text class=\"colname\" x=\"" + f1(x) + "\" y=\"" + f1(gy - 8) +
                 "\" text-anchor=\"middle\">" + tip(cols[c]) + escape(cols[c]) + "</text>";
    }
    for (std::size_t r = 0; r < rows.size(); ++r) {
        const double y = gy + cell * static_cast<double>(r);
        s += "<text class=\"rowlabel\" x=\"" + f1(gx - 8) + "\" y=\"" + f1(y + cell / 2 + 4) +
             "\" text-anchor=\"end\">" + escape(rows[r]) + "</text>";
        for (std::size_t c = 0; c < cols.size(); ++c) {
            const double x = gx + cell * static_cast<double>(c);
            const double v = r < values.size() && c < values[r].size()
                                 ? values[r][c]
                                 : std::numeric_limits<double>::quiet_NaN();
            const std::string hover =
                r < tips.size() && c < tips[r].size() ? tips[r][c] : rows[r] + " / " + cols[c];
            if (std::isnan(v)) {
                s += "<rect class=\"empty\" x=\"" + f1(x) + "\" y=\"" + f1(y) + "\" width=\"" +
                     f1(cell) + "\" height=\"" + f1(cell) + "\">" + tip(hover) + "</rect>";
                continue;
            }
            s += "<g class=\"cell\">" + tip(hover) + "<rect x=\"" + f1(x) + "\" y=\"" + f1(y) +
                 "\" width=\"" + f1(cell) + "\" height=\"" + f1(cell) + "\" fill=\"" + viridis(v) +
                 "\"/><text x=\"" + f1(x + cell / 2) + "\" y=\"" + f1(y + cell / 2 + 4) +
                 "\" text-anchor=\"middle\" class=\"" + (v < 0.6 ? "light" : "dark") + "\">" +
                 num(v, 3) + "</text></g>";
        }
    }
    // The colour scale, 0 to 1, at the right.
    const double kx = gx + cell * static_cast<double>(cols.size()) + 24;
    const double kh = cell * static_cast<double>(rows.size());
    for (int i = 0; i < 10; ++i)
        s += "<rect x=\"" + f1(kx) + "\" y=\"" + f1(gy + kh * (9 - i) / 10.0) +
             "\" width=\"14\" height=\"" + f1(kh / 10.0 + 0.5) + "\" fill=\"" +
             viridis((i + 0.5) / 10) + "\"/>";
    s += "<text class=\"label\" x=\"" + f1(kx) + "\" y=\"" + f1(gy - 8) + "\">rate</text>";
    s += "<text x=\"" + f1(kx + 18) + "\" y=\"" + f1(gy + 10) + "\">1</text><text x=\"" +
         f1(kx + 18) + "\" y=\"" + f1(gy + kh) + "\">0</text>";
    return s + close();
}

std::string line_chart(std::string_view title, std::string_view x_label, std::string_view y_label,
                       const std::vector<Line>& lines, const std::vector<std::string>& categories) {
    Frame f;
    double xlo = 0, xhi = 1, ylo = 0, yhi = 1;
    bool any = false;
    for (const auto& l : lines)
        for (std::size_t i = 0; i < l.x.size(); ++i) {
            const double lo = std::isfinite(l.low[i]) ? l.low[i] : l.mean[i];
            const double hi = std::isfinite(l.high[i]) ? l.high[i] : l.mean[i];
            if (!any) xlo = xhi = l.x[i], ylo = lo, yhi = hi;
            xlo = std::min(xlo, l.x[i]), xhi = std::max(xhi, l.x[i]);
            ylo = std::min(ylo, lo), yhi = std::max(yhi, hi);
            any = true;
        }
    const bool cat = !categories.empty();
    if (cat) xlo = -0.5, xhi = static_cast<double>(categories.size()) - 0.5;
    if (xhi <= xlo) xlo -= 0.5, xhi += 0.5;
    std::vector<std::pair<std::string, std::string>> legend;
    for (std::size_t k = 0; k < lines.size(); ++k)
        legend.emplace_back("s" + std::to_string(k % 7) + " line", lines[k].name);
    legend.emplace_back("band", "95% interval");
    f.room_for_legend(legend);
    const Ticks ty = nice_ticks(ylo, yhi, 5);
    const LinearScale sx{xlo, xhi, f.x0() + (cat ? 0 : 10), f.x1() - (cat ? 0 : 10)};
    const LinearScale sy{ty.values.front(), ty.values.back(), f.y0(), f.y1()};
    std::string s = f.open(title);
    s += f.legend(legend);
    s += f.y_axis(sy, ty, y_label);
    if (cat) {
        s += "<g class=\"axis x\"><line x1=\"" + f1(f.x0()) + "\" y1=\"" + f1(f.y0()) + "\" x2=\"" +
             f1(f.x1()) + "\" y2=\"" + f1(f.y0()) + "\"/>";
        for (std::size_t i = 0; i < categories.size(); ++i)
            s += "<text x=\"" + f1(sx(static_cast<double>(i))) + "\" y=\"" + f1(f.y0() + 18) +
                 "\" text-anchor=\"middle\">" + escape(categories[i]) + "</text>";
        s += "<text class=\"label\" x=\"" + f1((f.x0() + f.x1()) / 2) + "\" y=\"" +
             f1(f.height - 10) + "\" text-anchor=\"middle\">" + escape(x_label) + "</text></g>";
    } else {
        // An option of whole numbers (hull, ships) gets whole-number ticks: never 1.5 ships.
        bool whole = true;
        for (const auto& l : lines)
            for (double x : l.x) whole = whole && x == std::trunc(x);
        Ticks tx = nice_ticks(xlo, xhi, 8);
        if (whole && tx.step < 1) {
            tx = Ticks{{}, 1};
            for (double v = std::ceil(xlo); v <= std::floor(xhi); ++v) tx.values.push_back(v);
        }
        s += f.x_axis(sx, tx, x_label);
    }
    for (std::size_t k = 0; k < lines.size(); ++k) {
        const Line& l = lines[k];
        const std::string cls = "s" + std::to_string(k % 7);
        std::string band, line, points;
        for (std::size_t i = 0; i < l.x.size(); ++i)
            band += f1(sx(l.x[i])) + "," +
                    f1(sy(std::isfinite(l.high[i]) ? l.high[i] : l.mean[i])) + " ";
        for (std::size_t i = l.x.size(); i-- > 0;)
            band +=
                f1(sx(l.x[i])) + "," + f1(sy(std::isfinite(l.low[i]) ? l.low[i] : l.mean[i])) + " ";
        for (std::size_t i = 0; i < l.x.size(); ++i) {
            line += f1(sx(l.x[i])) + "," + f1(sy(l.mean[i])) + " ";
            const std::string x = cat ? categories[static_cast<std::size_t>(l.x[i])] : num(l.x[i]);
            points +=
                "<circle cx=\"" + f1(sx(l.x[i])) + "\" cy=\"" + f1(sy(l.mean[i])) + "\" r=\"4\">" +
                tip(l.name + ": " + std::string(x_label) + " " + x + ", " + std::string(y_label) +
                    " " + num(l.mean[i]) + " [" + num(l.low[i]) + ", " + num(l.high[i]) + "]") +
                "</circle>";
        }
        s += "<g class=\"" + cls + "\"><polygon class=\"" + cls + " band\" points=\"" + band +
             "\"/><polyline class=\"" + cls + " line\" points=\"" + line + "\"/>" + points + "</g>";
    }
    return s + close();
}

namespace {
// A band between two series of a fan, as one polygon.
std::string fan_band(const LinearScale& sx, const LinearScale& sy, const std::vector<double>& x,
                     const std::vector<double>& lo, const std::vector<double>& hi,
                     const std::string& cls) {
    std::string pts;
    for (std::size_t i = 0; i < x.size(); ++i) pts += f1(sx(x[i])) + "," + f1(sy(hi[i])) + " ";
    for (std::size_t i = x.size(); i-- > 0;) pts += f1(sx(x[i])) + "," + f1(sy(lo[i])) + " ";
    return "<polygon class=\"" + cls + "\" points=\"" + pts + "\"/>";
}
}  // namespace

std::string fan_chart(std::string_view title, std::string_view x_label, std::string_view y_label,
                      const Fan& fan) {
    Frame f;
    const std::vector<std::pair<std::string, std::string>> legend = {
        {"s0 fan-outer", "the middle 80% of games"},
        {"s0 fan-inner", "the middle half"},
        {"s0 line", "the median game"}};
    f.room_for_legend(legend);
    const double xhi = fan.step.empty() ? 1 : std::max(1.0, fan.step.back());
    const Ticks ty = nice_ticks(0, 1, 5);
    Ticks tx = nice_ticks(0, xhi, 8);
    if (tx.step < 1) {  // steps are whole numbers
        tx = Ticks{{}, 1};
        for (double v = 0; v <= xhi; ++v) tx.values.push_back(v);
    }
    const LinearScale sx{0, xhi, f.x0() + 10, f.x1() - 10};
    const LinearScale sy{0, 1, f.y0(), f.y1()};
    std::string s = f.open(title) + f.legend(legend) + f.y_axis(sy, ty, y_label) +
                    f.x_axis(sx, tx, x_label) + "<g class=\"s0\">" +
                    fan_band(sx, sy, fan.step, fan.q10, fan.q90, "s0 fan-outer") +
                    fan_band(sx, sy, fan.step, fan.q25, fan.q75, "s0 fan-inner");
    std::string line, hits;
    for (std::size_t i = 0; i < fan.step.size(); ++i) {
        line += f1(sx(fan.step[i])) + "," + f1(sy(fan.q50[i])) + " ";
        hits += "<circle class=\"hit\" cx=\"" + f1(sx(fan.step[i])) + "\" cy=\"" +
                f1(sy(fan.q50[i])) + "\" r=\"5\">" +
                tip(std::string(x_label) + " " + num(fan.step[i]) + ": median " + num(fan.q50[i]) +
                    ", 25%-75% " + num(fan.q25[i]) + "-" + num(fan.q75[i]) + ", 10%-90% " +
                    num(fan.q10[i]) + "-" + num(fan.q90[i])) +
                "</circle>";
    }
    return s + "<polyline class=\"s0 line\" points=\"" + line + "\"/>" + hits + "</g>" + close();
}

}  // namespace odds::svg
