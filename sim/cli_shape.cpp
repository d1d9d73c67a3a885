// odds shape: the shape of a game along its length (issue 32; docs/skill.md), for games that can
// follow a game's odds turn by turn (GameEntry::shape): lead changes, drama and decisiveness as
// Ludii defines them, and the comeback rate, averaged over sampled games.
#include <filesystem>
#include <iomanip>
#include <sstream>

#include "reports/csv.hpp"
#include "sim/cli_args.hpp"
#include "sim/cli_commands.hpp"
#include "sim/cli_report.hpp"
#include "sim/cli_spec.hpp"
#include "sim/interrupt.hpp"

namespace odds::cli {

namespace fs = std::filesystem;

namespace {

inline constexpr std::uint64_t kMaxShapeGames = 100'000'000;

// shape.csv (docs/output.md): one row a measure.
std::string shape_csv(const ShapeReport& r, std::uint64_t seed, std::uint64_t games) {
    std::string csv = "game,scenario,policy,seed,games,measure,value\n";
    for (const auto& m : r.measures)
        csv += csv_field(r.game) + ',' + csv_field(r.scenario) + ',' + csv_field(r.policy) + ',' +
               std::to_string(seed) + ',' + std::to_string(games) + ',' + m.name + ',' +
               format_double(m.value) + '\n';
    return csv;
}

std::string shape_table(const ShapeReport& r, std::uint64_t seed, std::uint64_t games) {
    std::ostringstream t;
    t << r.game << " shape | " << r.scenario << " | policy " << r.policy << " | seed " << seed
      << " | " << games << " games, the odds at every turn exact\n"
      << std::left << std::setw(16) << "measure" << std::setw(10) << "value"
      << "what it is\n";
    for (const auto& m : r.measures)
        t << std::setw(16) << m.name << std::setw(10) << fixed(m.value, 4) << m.meaning << '\n';
    for (const auto& n : r.notes) t << n << '\n';
    return t.str();
}

}  // namespace

int cmd_shape(const po::variables_map& vm, const std::vector<std::string>& args, Io io) {
    const GameEntry& game = game_of(vm);
    if (!game.shape) {
        std::string with;
        for (const auto& g : games())
            if (g.shape) with += (with.empty() ? "" : ", ") + std::string(g.name);
        throw UsageError("odds shape: " + std::string(game.name) +
                         " cannot follow a game's odds turn by turn yet (games that can: " + with +
                         ")");
    }
    const RunArgs run_args = run_args_of(vm);
    const RunConfig cfg = run_args.config();
    if (cfg.playouts > kMaxShapeGames)
        throw UsageError("-n " + std::to_string(cfg.playouts) + ": odds shape samples at most " +
                         std::to_string(kMaxShapeGames) + " games");
    const std::optional<std::string> out_dir = out_dir_of(vm);
    ShapeReport r;
    {
        InterruptGuard guard;  // the value table's solve checks the stop flag
        r = game.shape(settings_of(vm), policies_of(vm), cfg.seed, cfg.playouts);
    }
    if (out_dir) {
        prepare_out_dir(*out_dir);
        const fs::path dir(*out_dir);
        write_files_atomic({{dir / "shape.csv", shape_csv(r, cfg.seed, cfg.playouts)},
                            provenance_file(dir, "shape", args, {r.game})});
    }
    io.out << shape_table(r, cfg.seed, cfg.playouts);
    return 0;
}

}  // namespace odds::cli
