// odds merge: the shards of one command (--shard I/N, sim/shard.hpp) added exactly, and the
// command's files written from the sum: byte for byte what one process writes with that seed.
#include <optional>

#include "sim/cli_commands.hpp"
#include "sim/cli_spec.hpp"
#include "sim/shard.hpp"

namespace odds::cli {

int cmd_merge(const std::vector<std::string>& args, Io io) {
    const auto parsed = parse_command("merge", args, io);
    if (!parsed) return 0;
    const po::variables_map& vm = *parsed;
    if (!vm.count("dir"))
        throw UsageError("give the shards' folders (or shard files): odds merge DIR... --out DIR");
    std::vector<Shard> shards;
    for (const auto& d : vm["dir"].as<std::vector<std::string>>())
        for (auto& s : read_shards(d)) shards.push_back(std::move(s));
    const std::optional<std::string> out =
        vm.count("out") ? std::optional(vm["out"].as<std::string>()) : std::nullopt;
    return run_merged(std::move(shards), out, io);
}

}  // namespace odds::cli
