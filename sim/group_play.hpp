// Groups of games on the same dice, for the commands that compare many of them game by game
// (odds skill's rungs and pairings, odds restrict's variants): game j of every group plays on
// the dice of stream j (PreparedRun::play_each), so the groups' outcomes pair up game by game.
// The groups are one job for the executor (sim/executor.hpp): chunk k is a block of games of
// every group, and holds each group's outcomes of them as exact integers. Chunks merge in order
// by appending, so an interrupted run keeps the same first games of every group, and shards
// merged (odds merge, MPI) give one process's outcomes.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "sim/executor.hpp"
#include "sim/progress.hpp"

namespace odds::sim {

// One group: its run, and where its outcome is in a playout's metrics.
struct GroupSpec {
    const PreparedRun* run = nullptr;
    std::size_t score = 0;  // a solo game's metric; a two-seat game's measured seat's win
    std::size_t draw = 0;   // two seats: the draw
    bool solo = true;
};

// Each group's outcomes, game by game: a solo game's metric as stored; a two-seat game's
// 2 x win + draw (its points doubled: whole numbers).
struct Outcomes {
    std::vector<std::vector<std::int32_t>> scores;  // [group][game]
    // Each group's outcome's least and greatest (a solo game's metric's range; 0..2 points): a
    // shard's outcome past them is forged (issue 40), as a run shard's value past its metric's.
    std::vector<std::pair<std::int32_t, std::int32_t>> ranges;
    void merge(const Outcomes& o);
    std::uint64_t games() const { return scores.empty() ? 0 : scores.front().size(); }
};
// A shard's state: "outcomes GAMES GROUPS", then a "scores" line a group.
void write_state(std::vector<std::string>& lines, const Outcomes& o);
void add_state(StateReader& in, Outcomes& o);

// The games a chunk holds of every group: a few (a searched game can take a second, and Ctrl-C
// keeps only the games every group has played).
std::uint32_t group_block(std::uint64_t games);
// The groups' one job, `games` each, for the plan: `label` names them (the policies, the
// restrictions).
ShardJob groups_job(const std::string& scenario, const std::string& label, std::uint64_t games);

// Plays cfg.playouts games of every group as job 0 of `share` (cfg.chunk_size: group_block's),
// `bar` counting the games of every group; Ctrl-C stops it at a chunk boundary (partial).
ChunkedResult<Outcomes> play_groups(const std::vector<GroupSpec>& groups, const RunConfig& cfg,
                                    Executor& share, ProgressBar& bar);

}  // namespace odds::sim
