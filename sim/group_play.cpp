#include "sim/group_play.hpp"

#include <algorithm>

#include "sim/interrupt.hpp"

namespace odds::sim {

void Outcomes::merge(const Outcomes& o) {
    for (std::size_t g = 0; g < scores.size(); ++g)
        scores[g].insert(scores[g].end(), o.scores[g].begin(), o.scores[g].end());
}

// The first line's second word is the games its chunks hold, as every state's first line counts
// its playouts (sim/executor.cpp checks it against the chunks).
void write_state(std::vector<std::string>& lines, const Outcomes& o) {
    lines.push_back("outcomes " + std::to_string(o.games()) + ' ' +
                    std::to_string(o.scores.size()));
    for (const auto& g : o.scores) {
        std::string line = "scores";
        for (const auto v : g) line += ' ' + std::to_string(v);
        lines.push_back(std::move(line));
    }
}

void add_state(StateReader& in, Outcomes& o) {
    const auto head = in.line("outcomes");
    if (head.size() != 3 || in.u64(head[2]) != o.scores.size())
        throw in.bad("outcomes of another number of groups than this run's");
    const std::uint64_t n = in.u64(head[1]);
    for (std::size_t gi = 0; gi < o.scores.size(); ++gi) {
        auto& g = o.scores[gi];
        const auto words = in.line("scores");
        if (words.size() != n + 1) throw in.bad("a 'scores' line of another length");
        const auto [lo, hi] =
            gi < o.ranges.size() ? o.ranges[gi] : std::pair{std::int32_t{INT32_MIN}, INT32_MAX};
        for (std::size_t i = 1; i < words.size(); ++i) {
            const std::int64_t v = in.i64(words[i]);
            if (v < lo || v > hi)
                throw in.bad("a score of " + words[i] + ", past the group's " + std::to_string(lo) +
                             ".." + std::to_string(hi) + ": forged");
            g.push_back(static_cast<std::int32_t>(v));
        }
    }
}

std::uint32_t group_block(std::uint64_t games) {
    return static_cast<std::uint32_t>(std::clamp<std::uint64_t>(games / 256, 1, 16));
}

ShardJob groups_job(const std::string& scenario, const std::string& label, std::uint64_t games) {
    const std::uint32_t block = group_block(games);
    return {scenario, label, Executor::chunks_of(games, block), block};
}

ChunkedResult<Outcomes> play_groups(const std::vector<GroupSpec>& groups, const RunConfig& cfg,
                                    Executor& share, ProgressBar& bar) {
    Outcomes empty;
    empty.scores.resize(groups.size());
    for (const GroupSpec& g : groups)
        empty.ranges.emplace_back(g.solo ? g.run->metrics[g.score].lo : 0,
                                  g.solo ? g.run->metrics[g.score].hi : 2);
    const auto play_chunk = [&](Dice&, std::uint64_t first, std::uint64_t count, Outcomes& part) {
        std::vector<std::int32_t> out;
        for (std::size_t gi = 0; gi < groups.size(); ++gi) {
            const GroupSpec& g = groups[gi];
            const std::size_t m = g.run->metrics.size();
            out.resize(count * m);
            g.run->play_each(cfg.seed, first, count, out.data());
            for (std::uint64_t i = 0; i < count; ++i) {
                const std::int32_t* row = &out[i * m];
                part.scores[gi].push_back(g.solo ? row[g.score] : 2 * row[g.score] + row[g.draw]);
            }
        }
    };
    InterruptGuard guard;
    RunControl ctl;
    ctl.stop = &InterruptGuard::flag();
    ctl.progress = [&](std::uint64_t done) { bar.update(done * groups.size()); };
    return share.play_chunks(0, cfg, empty, play_chunk, ctl);
}

}  // namespace odds::sim
