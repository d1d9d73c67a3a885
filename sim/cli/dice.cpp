// odds dice EXPR...: the exact law of dice expressions (engine/rule_values.hpp), the designer's
// quick look at "what does 3d6 do against 4d6" before a full run (docs/variants.md).
#include <cmath>
#include <filesystem>
#include <iomanip>
#include <sstream>

#include "engine/rule_values.hpp"
#include "reports/csv.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/report.hpp"
#include "sim/cli/spec.hpp"
#include "sim/interrupt.hpp"

namespace odds::cli {

namespace fs = std::filesystem;

namespace {

struct Law {
    std::string text;  // as given, written back in its canonical form
    DiceExpr e;
    std::vector<double> p;
    double mean = 0, sd = 0;
};

Law law_of(const std::string& arg) {
    std::string why;
    const auto e = parse_dice(arg, &why);
    if (!e) throw UsageError("'" + arg + "' is not a dice expression; " + why);
    Law l{to_string(*e), *e, law(*e)};
    // Mean and variance term by term: a plain term's exactly (a die of X faces: (X + 1) / 2 and
    // (X^2 - 1) / 12), not summed from the law, whose rounding would show (10.500000000000002);
    // a kept, exploding, counted or rerolled term's summed from its own law.
    long twice_mean = 2L * e->constant, twelve_var = 0;
    double mean = 0, var = 0;
    for (int i = 0; i < e->n; ++i) {
        const auto t = e->terms[static_cast<std::size_t>(i)];
        if (t.kind == DiceExpr::Term::plain) {
            twice_mean += long{t.count} * (t.sides + 1);
            twelve_var += long{t.count} * (long{t.sides} * t.sides - 1);
            continue;
        }
        const std::vector<double> p = law(t);
        double m = 0, m2 = 0;
        for (std::size_t v = 0; v < p.size(); ++v) {
            const double total = t.min() + static_cast<double>(v);
            m += p[v] * total;
            m2 += p[v] * total * total;
        }
        mean += m;
        var += std::max(0.0, m2 - m * m);
    }
    l.mean = static_cast<double>(twice_mean) / 2 + mean;
    l.sd = std::sqrt(static_cast<double>(twelve_var) / 12 + var);
    return l;
}

std::string number(double v, int digits) {
    std::ostringstream s;
    s << std::fixed << std::setprecision(digits) << v;
    return s.str();
}

}  // namespace

int cmd_dice(const Args& opt, Io io) {
    if (opt.files.empty())
        throw UsageError("which dice? give one or more expressions, such as 3d6 4d6 2d6+1d4");
    const auto exprs = opt.files;
    if (exprs.size() > 16) throw UsageError("at most 16 expressions at once");
    const std::optional<std::string> out_dir = out_dir_of(opt);  // checked; made when written
    std::vector<Law> laws;
    {
        InterruptGuard guard;  // a law of hundreds of dice takes a second: Ctrl-C writes nothing
        for (const auto& a : exprs) laws.push_back(law_of(a));
    }

    // The table: one block an expression; at_least and at_most summed from the ends, so that
    // neither carries the other's rounding.
    std::string csv = "expression,total,probability,at_least,at_most,mean,stddev\n";
    for (const auto& l : laws) {
        const std::size_t n = l.p.size();
        std::vector<double> up(n + 1, 0.0), down(n + 1, 0.0);
        for (std::size_t i = n; i-- > 0;) up[i] = up[i + 1] + l.p[i];
        for (std::size_t i = 0; i < n; ++i) down[i + 1] = down[i] + l.p[i];
        io.out << l.text << ": totals " << l.e.min() << ".." << l.e.max() << ", mean "
               << number(l.mean, 4) << ", standard deviation " << number(l.sd, 4) << '\n'
               << "  total     P(=)     P(>=)     P(<=)\n";
        for (std::size_t i = 0; i < n; ++i) {
            const int total = l.e.min() + static_cast<int>(i);
            io.out << std::setw(7) << total << "  " << number(l.p[i], 6) << "  " << number(up[i], 6)
                   << "  " << number(down[i + 1], 6) << '\n';
            csv += csv_field(l.text) + ',' + std::to_string(total) + ',' + format_double(l.p[i]) +
                   ',' + format_double(up[i]) + ',' + format_double(down[i + 1]) + ',' +
                   format_double(l.mean) + ',' + format_double(l.sd) + '\n';
        }
    }
    if (laws.size() == 2) {  // the designer's question: which of the two rolls higher?
        // Each total of a against b's law below it and at it: linear in the totals (the pairs
        // of two laws of 40,000 totals each took 25 s).
        const Law &a = laws[0], &b = laws[1];
        std::vector<double> below(b.p.size() + 1, 0.0);  // below[j]: P(b < b.min + j)
        for (std::size_t j = 0; j < b.p.size(); ++j) below[j + 1] = below[j] + b.p[j];
        double more = 0, tie = 0;
        for (std::size_t i = 0; i < a.p.size(); ++i) {
            const long j = long{a.e.min()} + static_cast<long>(i) - b.e.min();  // a's total in b
            if (j < 0) continue;
            const auto k = static_cast<std::size_t>(j);
            more += a.p[i] * below[std::min(k, b.p.size())];
            if (k < b.p.size()) tie += a.p[i] * b.p[k];
        }
        io.out << "P(" << a.text << " > " << b.text << ") = " << number(more, 6)
               << ", P(equal) = " << number(tie, 6) << ", P(" << a.text << " < " << b.text
               << ") = " << number(std::max(0.0, 1 - more - tie), 6) << '\n';
    }
    if (out_dir) {
        prepare_out_dir(*out_dir);
        const fs::path dir(*out_dir);
        write_out_files({{dir / "dice.csv", csv}}, dir, "dice", opt.command_line, {});
        io.err << "odds dice: wrote " << (dir / "dice.csv").string() << '\n';
    }
    return 0;
}

namespace {
void dice_options(po::options_description& d) {
    out_option(d, "also write DIR/dice.csv: every total's probability, at least and at most");
}
}  // namespace

const CommandSpec dice_spec = {
    "dice",
    "the exact law of dice expressions: each total's probability, at least, at most",
    "odds dice EXPR... [--out DIR]",
    "The exact law of each dice expression (docs/variants.md: NdX, NdX+K, NdX-K and sums such "
    "as 2d6+1d4, any die from d2 to d100, a term perhaps kept, exploding, counted or rerolled: "
    "4d6kh3, 2d20kl1, 3d6!, 6d6>=5, d6r1): its totals' probabilities, the chance of at least and "
    "at most each, its mean and standard deviation, by convolution. Given two, also the chance "
    "that the first rolls higher: what a rule tweak's dice do, before a full run.",
    {"odds dice 4d6kh3 3d6", "odds dice 2d6+1d4 --out dice"},
    "file",
    -1,
    dice_options,
    cmd_dice};

}  // namespace odds::cli
