#include "sim/shape_run.hpp"

#include <charconv>

#include "engine/stop.hpp"

#include "reports/chars.hpp"
#include "sim/shard_file.hpp"

namespace odds::shape {

void Traced::add(std::span<const double> game) {
    tally.add(game);
    if (!keep) return;
    p.insert(p.end(), game.begin(), game.end());
    ends.push_back(p.size());
}

void Traced::merge(const Traced& o) {
    tally.merge(o.tally);
    if (!keep) return;
    const std::uint64_t at = p.size();
    p.insert(p.end(), o.p.begin(), o.p.end());
    for (const auto e : o.ends) ends.push_back(at + e);
}

void refuse_long_shard() {
    throw UsageError("this share's games hold more than " + std::to_string(kMaxShardValues) +
                     " p's, what a shard of odds shape keeps (within the 512 MiB odds merge reads "
                     "of a shard): cut the games into more shards (--shard I/N, MPI ranks)");
}

void write_state(std::vector<std::string>& lines, const Traced& t) {
    lines.push_back("traces " + std::to_string(t.ends.size()));
    std::uint64_t from = 0;
    for (const auto end : t.ends) {
        std::string line = "p";
        for (std::uint64_t k = from; k < end; ++k) {
            line += ' ';
            line += double_text(t.p[k]);
        }
        lines.push_back(std::move(line));
        from = end;
    }
}

// Each game added as one process adds it: a chunk of its own (a copy of the empty tally, of the
// same kind and estimator, holding the game) merged into the sum.
void add_state(sim::StateReader& in, Traced& t) {
    const auto head = in.line("traces");
    if (head.size() != 2) throw in.bad("a 'traces' line is 'traces GAMES'");
    const std::uint64_t games = in.u64(head[1]);
    std::vector<double> p;
    for (std::uint64_t g = 0; g < games; ++g) {
        if (g % 4096 == 0) throw_if_stop_requested();  // odds merge answers Ctrl-C at once
        const auto words = in.line("p");
        if (words.size() < 2 || words.size() > kMaxGameValues + 1)
            throw in.bad("a game of " + std::to_string(words.size() - 1) + " p's; valid: 1 to " +
                         std::to_string(kMaxGameValues));
        p.clear();
        for (std::size_t k = 1; k < words.size(); ++k) {
            const auto& w = words[k];
            const auto x = text_double(w);
            if (!x || !(*x >= 0 && *x <= 1)) throw in.bad("p '" + w + "': a probability, 0 to 1");
            p.push_back(*x);
        }
        Tally one;
        one.solo = t.tally.solo;
        one.rollouts = t.tally.rollouts;
        one.add(p);
        t.tally.merge(one);
    }
}

}  // namespace odds::shape
