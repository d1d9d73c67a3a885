// Shard files (docs/output.md, "Shard files"): what `--shard I/N` writes and `odds merge` (or
// MPI's rank 0) reads back, one record a line, "KEY VALUE" with VALUE verbatim, the last line a
// CRC-32 of every byte before it; and a job's exact state, written as `state` lines from a Tally
// and added back into one. Read through the one line-record reader (engine/line_reader.hpp): a
// bad record or state line is one UsageError "FILE:LINE: WHAT", a bad file "FILE: WHAT".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/rule_options.hpp"
#include "reports/tally.hpp"

namespace odds::sim {

// One job of a command, as its shards record it.
struct ShardJob {
    std::string scenario;
    std::string policy;
    std::uint64_t chunks = 0;
    std::uint64_t chunk_size = 0;  // playouts a chunk (the last may be short)
    bool operator==(const ShardJob&) const = default;
};

// A shard's provenance and exact state: what a shard file holds (docs/output.md, shard files).
struct Shard {
    std::string source;  // the file (or MPI rank) it came from, for messages
    std::string odds_version, command, game, rules_version;
    std::uint64_t seed = 0, playouts = 0;
    // The command's arguments, without --shard, --out, --threads and --no-progress: playing them
    // again prepares exactly the runs the shard played.
    std::vector<std::string> args;
    std::vector<ShardJob> jobs;
    std::uint64_t index = 1, count = 1;  // shard I of N
    std::uint64_t first = 0, last = 0;   // the work units played, [first, last)
    bool partial = false;                // interrupted: it played fewer units than its share
    // Per job, the lines of its state (none: the shard played none of its chunks).
    std::vector<std::vector<std::string>> states;
    // Per job, the line of `source` each state line was read from (read_shard's; empty for a
    // shard played here), for messages.
    std::vector<std::vector<int>> state_lines;
};

// The text of a shard file, its last line a CRC-32 of everything before it.
std::string shard_text(const Shard& s);
// Reads a shard file's text; throws UsageError (naming `source`) when it is truncated, edited
// (the checksum disagrees) or not a shard file.
Shard read_shard(std::string_view text, std::string source);
// Every shard file in `path` (a folder: its shard-*.odds files; or one shard file).
std::vector<Shard> read_shards(const std::string& path);

// `s` whole as a whole number from 0 to 2^64-1; nullopt otherwise.
std::optional<std::uint64_t> to_u64(std::string_view s);

// A job's state, line by line: written from a Tally, and added into one.
void write_state(std::vector<std::string>& lines, const Tally& t);
class StateReader;
void add_state(StateReader& in, Tally& t);

// The lines of one job's state in one shard, read in order.
class StateReader {
public:
    // `numbers`: the line of `where` each of `lines` is on (Shard::state_lines), or none.
    StateReader(const std::vector<std::string>& lines, std::string where,
                const std::vector<int>* numbers = nullptr)
        : lines_(lines), numbers_(numbers), where_(std::move(where)) {}
    // The next line's words, its first being `keyword`; throws when it is missing or another.
    std::vector<std::string> line(std::string_view keyword);
    bool done() const { return next_ == lines_.size(); }
    // Throws `why` naming the first line not read, unless every line was.
    void expect_end(const std::string& why);
    // "WHERE:LINE: WHY" for the line read last (or the first, before any), "WHERE: WHY" without
    // line numbers.
    UsageError bad(const std::string& why) const;
    std::uint64_t u64(const std::string& word) const;
    std::int64_t i64(const std::string& word) const;
    // "VALUE:COUNT"
    std::pair<std::int32_t, std::uint64_t> pair(const std::string& word) const;

private:
    const std::vector<std::string>& lines_;
    const std::vector<int>* numbers_;
    std::string where_;
    std::size_t next_ = 0;
    std::size_t at_ = 0;  // the line read last
};

}  // namespace odds::sim
