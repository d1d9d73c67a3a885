// odds merge: the shards of one command (--shard I/N, sim/executor.hpp) added exactly, and the
// command's files written from the sum: byte for byte what one process writes with that seed.
#include <filesystem>
#include <optional>

#include "sim/cli/commands.hpp"
#include "sim/cli/spec.hpp"
#include "sim/executor.hpp"

#include "sim/cli/report.hpp"
#include "sim/cli/spec.hpp"

namespace odds::cli {

namespace fs = std::filesystem;

int run_merged(std::vector<Shard> shards, const std::optional<std::string>& out,
               std::ostream& out_stream, std::ostream& err, bool allow_gaps) {
    Executor share = Executor::merge(std::move(shards), allow_gaps);
    const Shard& s = share.result();
    std::vector<std::string> args = s.args;
    args.push_back("--no-progress");
    if (out) args.push_back("--out=" + *out);
    // The command makes --out before it reads the shards' states; a shard refused there must not
    // leave behind the (empty) folders it made.
    std::vector<fs::path> made;  // the folders of --out that did not exist, deepest first
    if (out && !out->empty()) {
        std::error_code ec;
        for (fs::path p = fs::absolute(*out, ec).lexically_normal();
             !p.empty() && !fs::exists(p, ec) && p != p.parent_path(); p = p.parent_path())
            if (p.has_filename()) made.push_back(p);
    }
    try {
        return run_command(find_command(s.command), args, Io{out_stream, err}, {&share, nullptr});
    } catch (...) {
        // Only folders: a file in one (none is written before the states are read) keeps it.
        const auto remove_empty = [](const auto& self, const fs::path& dir) -> void {
            std::error_code ec;
            if (!fs::is_directory(dir, ec) || fs::is_symlink(dir, ec)) return;
            for (const auto& e : fs::directory_iterator(dir, ec)) self(self, e.path());
            if (fs::is_empty(dir, ec)) fs::remove(dir, ec);  // removes only an empty folder
        };
        // compare makes a folder a policy inside --out: those go too.
        for (const auto& p : made) remove_empty(remove_empty, p);
        throw;
    }
}

int cmd_merge(const Args& opt, Io io) {
    if (opt.files.empty())
        throw UsageError("give the shards' folders (or shard files): odds merge DIR... --out DIR");
    std::vector<Shard> shards;
    for (const auto& d : opt.files)
        for (auto& s : read_shards(d)) shards.push_back(std::move(s));
    const std::optional<std::string> out = opt.out.text;
    return run_merged(std::move(shards), out, io.out, io.err);
}

namespace {
void merge_options(po::options_description& d) {
    out_option(d, "write the merged command's files into DIR (a baseline's: the baseline FILE)");
}
}  // namespace

const CommandSpec merge_spec = {
    "merge",
    "add up the shards of a command played with --shard I/N",
    "odds merge DIR... [--out DIR]",
    "Reads the shard files (shard-I-of-N.odds) in each DIR (or each shard file given), checks "
    "that they are shards of one command (the same command, game, scenario, policies, options, "
    "rules version and seed) whose chunks tile its work exactly, adds their exact counts, and "
    "writes the command's files into --out DIR and its table on stdout: byte for byte what one "
    "process writes with that seed, whatever the number of shards (docs/cluster.md). A "
    "truncated or edited shard, shards of different runs, overlapping or missing chunks: one "
    "line naming them, exit 2.",
    {"odds merge shards/ --out runs/bosconian",
     "odds merge host1/shards host2/shards --out runs/tournament"},
    "dir",
    -1,
    merge_options,
    cmd_merge};

}  // namespace odds::cli
