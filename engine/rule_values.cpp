#include "engine/rule_values.hpp"

#include <algorithm>
#include <charconv>

#include "engine/stop.hpp"

namespace odds {

namespace {

// A whole number at text[i...], advancing i; nullopt when there is no digit there.
std::optional<long> number_at(std::string_view text, std::size_t& i) {
    long v = 0;
    const auto r = std::from_chars(text.data() + i, text.data() + text.size(), v);
    if (r.ec != std::errc{} || r.ptr == text.data() + i) return std::nullopt;
    i = static_cast<std::size_t>(r.ptr - text.data());
    return v;
}

bool fail(std::string* why, std::string what) {
    if (why) *why = std::move(what);
    return false;
}

// The modifier after a term NdX at text[i...], if any (rule_values.hpp), into t.
bool modifier(std::string_view text, std::size_t& i, DiceExpr::Term& t, std::string* why) {
    using T = DiceExpr::Term;
    const auto at = [&](std::string_view s) {
        if (text.substr(i, s.size()) != s) return false;
        i += s.size();
        return true;
    };
    const std::string term = std::to_string(t.count) + "d" + std::to_string(t.sides);
    const auto face = [&](std::string_view what, long lo, long hi) -> std::optional<long> {
        const auto v = number_at(text, i);
        if (!v || *v < lo || *v > hi) {
            fail(why, term + std::string(what) + " takes a number from " + std::to_string(lo) +
                          " to " + std::to_string(hi));
            return std::nullopt;
        }
        return v;
    };
    if (at("kh") || at("kl") || at("dh") || at("dl") || at("k")) {
        // k and kh keep the highest, dl drops the lowest: the same; kl and dh the other way.
        const bool alone = text[i - 1] == 'k';
        const std::string_view op = alone ? "kh" : text.substr(i - 2, 2);
        const bool keep = op[0] == 'k';
        const bool high = op == "kh" || op == "dl";
        if (t.count > kMaxKeepDice)
            return fail(why, "a term that keeps or drops dice rolls at most " +
                                 std::to_string(kMaxKeepDice) + " dice (" + term + ")");
        const auto k = face(alone ? "k" : op, 1, keep ? t.count : t.count - 1);
        if (!k) return false;
        t.kind = high ? T::keep_high : T::keep_low;
        t.a = static_cast<std::uint8_t>(keep ? *k : t.count - *k);
    } else if (at("!")) {
        t.kind = T::explode;
    } else if (at(">=") || at("<=")) {
        t.kind = text[i - 2] == '>' ? T::at_least : T::at_most;
        const auto f = face(t.kind == T::at_least ? ">=" : "<=", 1, t.sides);
        if (!f) return false;
        t.a = static_cast<std::uint8_t>(*f);
    } else if (at("r")) {
        t.kind = T::reroll;
        t.once = at("o");
        const bool under = at("<"), over = !under && at(">");
        const auto f = face(std::string(t.once ? "ro" : "r") + (under  ? "<"
                                                                : over ? ">"
                                                                       : ""),
                            1, t.sides);
        if (!f) return false;
        t.a = static_cast<std::uint8_t>(under ? 1 : *f);
        t.b = static_cast<std::uint8_t>(over ? t.sides : *f);
        if (!t.once && t.a == 1 && t.b == t.sides)
            return fail(why, term + " would reroll every face forever");
    }
    if (i < text.size() && std::string_view("khdl!<>=ro").find(text[i]) != std::string_view::npos)
        return fail(why, "one modifier a term (" + term + " has two): " + std::string(kDiceTakes));
    return true;
}

}  // namespace

std::optional<DiceExpr> parse_dice(std::string_view spaced, std::string* why) {
    std::string text;  // blanks ignored: "2d6 + 1"
    for (char c : spaced)
        if (c != ' ') text += c;
    DiceExpr e;
    std::size_t i = 0;
    long constant = 0;
    bool first = true;
    const auto bad = [&](std::string what) {
        fail(why, std::move(what));
        return std::nullopt;
    };
    if (text.empty()) return bad(std::string(kDiceTakes));
    while (i < text.size()) {
        int sign = 1;
        if (text[i] == '+' || text[i] == '-') {
            sign = text[i] == '-' ? -1 : 1;
            ++i;
        } else if (!first) {
            return bad(std::string(kDiceTakes));
        }
        first = false;
        long n = -1;  // none given
        if (i < text.size() && text[i] != '-' && text[i] != '+')
            if (const auto v = number_at(text, i)) n = *v;
        if (i < text.size() && text[i] == 'd') {  // NdX, or dX for 1dX
            ++i;
            if (sign < 0) return bad("dice are added, not taken away: " + std::string(kDiceTakes));
            if (n != -1 && (n < 1 || n > kMaxDiceCount))
                return bad("a term NdX rolls 1 to " + std::to_string(kMaxDiceCount) + " dice");
            const auto x = i < text.size() && text[i] != '-' && text[i] != '+' ? number_at(text, i)
                                                                               : std::nullopt;
            if (!x || *x < 2 || *x > kMaxDieSides)
                return bad("a die has 2 to " + std::to_string(kMaxDieSides) + " faces (NdX)");
            if (e.n == kMaxDiceTerms)
                return bad("at most " + std::to_string(kMaxDiceTerms) + " terms NdX");
            DiceExpr::Term t{static_cast<std::uint8_t>(n == -1 ? 1 : n),
                             static_cast<std::uint8_t>(*x)};
            if (!modifier(text, i, t, why)) return std::nullopt;
            e.terms[e.n++] = t;
            continue;
        }
        if (n == -1) return bad(std::string(kDiceTakes));
        constant += sign * n;
        if (constant < -kMaxDiceConstant || constant > kMaxDiceConstant)
            return bad("a constant from -" + std::to_string(kMaxDiceConstant) + " to " +
                       std::to_string(kMaxDiceConstant));
    }
    e.constant = static_cast<int>(constant);
    e.finish();
    return e;
}

std::string to_string(const DiceExpr& e) {
    std::string s;
    for (int i = 0; i < e.n; ++i) {
        const auto t = e.terms[static_cast<std::size_t>(i)];
        if (!s.empty()) s += '+';
        s += std::to_string(t.count) + "d" + std::to_string(t.sides);
        using T = DiceExpr::Term;
        const auto add = [&](std::string_view op, int v) {  // (no "kh" + string: gcc 12's
            s += op;                                        // -Wrestrict false alarm)
            s += std::to_string(v);
        };
        switch (t.kind) {
            case T::keep_high:
                add("kh", t.a);
                break;
            case T::keep_low:
                add("kl", t.a);
                break;
            case T::explode:
                s += '!';
                break;
            case T::at_least:
                add(">=", t.a);
                break;
            case T::at_most:
                add("<=", t.a);
                break;
            case T::reroll: {
                const std::string_view r = t.once ? "ro" : "r";
                if (t.a == t.b)
                    add(r, t.a);
                else if (t.a == 1)
                    add(std::string(r) + "<", t.b);
                else
                    add(std::string(r) + ">", t.a);
                break;
            }
            case T::plain:
                break;
        }
    }
    if (e.constant > 0 && !s.empty()) s += '+';
    if (e.constant != 0 || s.empty()) s += std::to_string(e.constant);
    return s;
}

namespace {

// A law of fewer steps takes a few milliseconds and never looks at the stop flag: parsing, which
// a stopped command still does to write what it has, computes such (Bosconian's placement gap).
constexpr long kQuickLaw = 10'000'000;

// p's law convolved with q's (each from its least value); work counts the steps so far, and a
// long law looks at the stop flag.
std::vector<double> convolve(const std::vector<double>& p, const std::vector<double>& q,
                             long& work) {
    work += static_cast<long>(p.size() * q.size());
    if (work > kQuickLaw) throw_if_stop_requested();  // 400 dice of 100 faces: a second
    std::vector<double> r(p.size() + q.size() - 1, 0.0);
    for (std::size_t a = 0; a < p.size(); ++a)
        for (std::size_t f = 0; f < q.size(); ++f) r[a + f] += p[a] * q[f];
    return r;
}

// p's law plus `count` draws of one die's law q, die by die.
std::vector<double> add_dice(std::vector<double> p, const std::vector<double>& q, int count,
                             long& work) {
    for (int k = 0; k < count; ++k) p = convolve(p, q, work);
    return p;
}

// One die of the term, from its least value: a face (plain, keep), a face after rerolls, an
// exploded total, or 0/1 (count).
std::vector<double> die_law(const DiceExpr::Term& t) {
    using T = DiceExpr::Term;
    const int x = t.sides;
    const double face = 1.0 / x;
    switch (t.kind) {
        case T::explode: {  // k more dice showed the top face, then a last one (a top face
                            // at the last depth stays)
            std::vector<double> p(static_cast<std::size_t>(x * (kExplodeDepth + 1)), 0.0);
            double reach = 1.0;  // P(k top faces in a row)
            for (int k = 0; k <= kExplodeDepth; ++k) {
                const int last = k == kExplodeDepth ? x : x - 1;
                for (int f = 1; f <= last; ++f)
                    p[static_cast<std::size_t>(k * x + f - 1)] += reach * face;
                reach *= face;
            }
            return p;
        }
        case T::at_least:
        case T::at_most: {
            const int hits = t.kind == T::at_least ? x - t.a + 1 : t.a;
            if (hits == x) return {1.0};  // every die counts: min() is the count
            return {1 - hits * face, hits * face};
        }
        case T::reroll: {
            const int rerolled = t.b - t.a + 1;
            std::vector<double> p(static_cast<std::size_t>(x), 0.0);
            for (int f = 1; f <= x; ++f) {
                const bool again = f >= t.a && f <= t.b;
                p[static_cast<std::size_t>(f - 1)] =
                    t.once ? (again ? 0.0 : face) + rerolled * face * face
                           : (again ? 0.0 : 1.0 / (x - rerolled));
            }
            // From the least face that can show to the greatest.
            const auto first = std::find_if(p.begin(), p.end(), [](double v) { return v > 0; });
            const auto last = std::find_if(p.rbegin(), p.rend(), [](double v) { return v > 0; });
            return {first, last.base()};
        }
        default:
            return std::vector<double>(static_cast<std::size_t>(x), face);
    }
}

// Keep the K highest (or lowest) of N dice of X faces: the faces from the best down, each shown
// by c of the dice still unplaced (C(left, c) ways, X^-c each); the kept sum grows by the face
// for each of those c still within the K. dp[j][s]: j dice placed, kept sum s.
std::vector<double> keep_law(const DiceExpr::Term& t, long& work) {
    const int n = t.count, k = t.a, x = t.sides;
    const bool high = t.kind == DiceExpr::Term::keep_high;
    const auto cols = static_cast<std::size_t>(k * x + 1);
    std::vector<double> dp(static_cast<std::size_t>(n + 1) * cols, 0.0), next(dp.size());
    const auto at = [&](std::vector<double>& v, int j, int s) -> double& {
        return v[static_cast<std::size_t>(j) * cols + static_cast<std::size_t>(s)];
    };
    std::vector<double> choose(static_cast<std::size_t>(n + 1) * (n + 1), 0.0);  // C(a, b)
    for (int a = 0; a <= n; ++a)
        for (int b = 0; b <= a; ++b)
            choose[static_cast<std::size_t>(a * (n + 1) + b)] =
                b == 0 || b == a ? 1.0
                                 : choose[static_cast<std::size_t>((a - 1) * (n + 1) + b - 1)] +
                                       choose[static_cast<std::size_t>((a - 1) * (n + 1) + b)];
    at(dp, 0, 0) = 1.0;
    for (int step = 0; step < x; ++step) {
        const int f = high ? x - step : step + 1;
        work += static_cast<long>(dp.size()) * n;
        if (work > kQuickLaw) throw_if_stop_requested();
        std::fill(next.begin(), next.end(), 0.0);
        for (int j = 0; j <= n; ++j)
            for (int s = 0; s < static_cast<int>(cols); ++s) {
                const double w = at(dp, j, s);
                if (w == 0) continue;
                double pow = 1.0;
                for (int c = 0; j + c <= n; ++c, pow /= x) {
                    const int kept = std::min(j + c, k) - std::min(j, k);
                    at(next, j + c, s + kept * f) +=
                        w * choose[static_cast<std::size_t>((n - j) * (n + 1) + c)] * pow;
                }
            }
        std::swap(dp, next);
    }
    std::vector<double> p(cols - static_cast<std::size_t>(k));  // from the least sum, k
    for (std::size_t s = static_cast<std::size_t>(k); s < cols; ++s)
        p[s - static_cast<std::size_t>(k)] = at(dp, n, static_cast<int>(s));
    return p;
}

std::vector<double> term_law(const DiceExpr::Term& t, long& work) {
    if (t.kind == DiceExpr::Term::keep_high || t.kind == DiceExpr::Term::keep_low)
        return keep_law(t, work);
    return add_dice({1.0}, die_law(t), t.count, work);
}

}  // namespace

std::vector<double> law(const DiceExpr::Term& t) {
    long work = 0;
    return term_law(t, work);
}

std::vector<double> law(const DiceExpr& e) {
    std::vector<double> p{1.0};  // the law of the sum so far, from its minimum
    long work = 0;
    for (int i = 0; i < e.n; ++i) {
        const DiceExpr::Term& t = e.terms[static_cast<std::size_t>(i)];
        // A plain term die by die (the laws the solvers always had, bit for bit).
        p = t.kind == DiceExpr::Term::plain ? add_dice(std::move(p), die_law(t), t.count, work)
                                            : convolve(p, term_law(t, work), work);
    }
    return p;
}

std::string faces_takes(int sides) {
    return "faces of a d" + std::to_string(sides) +
           ": a range such as 2-5, a list such as 1,3,4,6, " + "one face, or none";
}

std::optional<FaceSet> parse_faces(std::string_view text, int sides, std::string* why) {
    const auto bad = [&](std::string what) {
        fail(why, std::move(what));
        return std::nullopt;
    };
    if (text == "none") return FaceSet{};
    if (text.empty()) return bad(faces_takes(sides));
    FaceSet s;
    std::size_t i = 0;
    while (i <= text.size()) {
        const auto a = number_at(text, i);
        if (!a) return bad(faces_takes(sides));
        long b = *a;
        if (i < text.size() && text[i] == '-') {
            ++i;
            const auto to = number_at(text, i);
            if (!to) return bad(faces_takes(sides));
            b = *to;
        }
        if (*a < 1 || b > sides || *a > b)
            return bad("faces from 1 to " + std::to_string(sides) +
                       ", ranges rising: " + faces_takes(sides));
        for (long f = *a; f <= b; ++f) {
            if (s.has(static_cast<int>(f)))
                return bad("face " + std::to_string(f) + " given twice: " + faces_takes(sides));
            s.add(static_cast<int>(f));
        }
        if (i == text.size()) break;
        if (text[i] != ',') return bad(faces_takes(sides));
        ++i;
    }
    return s;
}

std::string to_string(const FaceSet& s) {
    std::string out;
    for (int f = 1; f <= kMaxDieSides;) {
        if (!s.has(f)) {
            ++f;
            continue;
        }
        int to = f;
        while (to + 1 <= kMaxDieSides && s.has(to + 1)) ++to;
        if (!out.empty()) out += ',';
        out += std::to_string(f);
        if (to > f) {
            out += to == f + 1 ? ',' : '-';
            out += std::to_string(to);
        }
        f = to + 1;
    }
    return out.empty() ? "none" : out;
}

std::optional<StepTable> parse_steps(std::string_view text, std::string* why) {
    const auto bad = [&](std::string what) {
        fail(why, std::move(what));
        return std::nullopt;
    };
    StepTable t;
    std::size_t i = 0;
    if (text.empty()) return bad(std::string(kStepsTakes));
    while (i <= text.size()) {
        const auto at = number_at(text, i);
        if (!at || i >= text.size() || text[i] != ':') return bad(std::string(kStepsTakes));
        ++i;
        const auto v = number_at(text, i);
        if (!v) return bad(std::string(kStepsTakes));
        if (*at < -1000 || *at > 1000 || *v < -1000 || *v > 1000)
            return bad(std::string(kStepsTakes));
        if (t.n > 0 && *at <= t.at_least[t.n - 1u]) return bad(std::string(kStepsTakes));
        if (t.n == kMaxSteps) return bad("at most " + std::to_string(kMaxSteps) + " rows");
        t.at_least[t.n] = static_cast<std::int16_t>(*at);
        t.value[t.n] = static_cast<std::int16_t>(*v);
        ++t.n;
        if (i == text.size()) break;
        if (text[i] != ',') return bad(std::string(kStepsTakes));
        ++i;
    }
    return t;
}

std::string to_string(const StepTable& t) {
    std::string s;
    for (int i = 0; i < t.n; ++i) {
        if (i) s += ',';
        s += std::to_string(t.at_least[static_cast<std::size_t>(i)]) + ":" +
             std::to_string(t.value[static_cast<std::size_t>(i)]);
    }
    return s;
}

}  // namespace odds
