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
            e.terms[e.n++] = {static_cast<std::uint8_t>(n == -1 ? 1 : n),
                              static_cast<std::uint8_t>(*x)};
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
    }
    if (e.constant > 0 && !s.empty()) s += '+';
    if (e.constant != 0 || s.empty()) s += std::to_string(e.constant);
    return s;
}

std::vector<double> law(const DiceExpr& e) {
    std::vector<double> p{1.0};  // the law of the sum so far, from its minimum
    for (int i = 0; i < e.n; ++i) {
        const auto t = e.terms[static_cast<std::size_t>(i)];
        const double face = 1.0 / t.sides;
        for (int k = 0; k < t.count; ++k) {
            throw_if_stop_requested();  // 400 dice of 100 faces: a second
            std::vector<double> q(p.size() + t.sides - 1, 0.0);
            for (std::size_t a = 0; a < p.size(); ++a)
                for (int f = 0; f < t.sides; ++f) q[a + static_cast<std::size_t>(f)] += p[a] * face;
            p = std::move(q);
        }
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
