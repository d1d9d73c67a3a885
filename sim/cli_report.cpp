#include "sim/cli_report.hpp"

#include <sstream>
#include <stdexcept>

#include "reports/csv.hpp"
#include "reports/html_report.hpp"
#include "sim/cli_commands.hpp"
#include "sim/cli_spec.hpp"
#include "sim/registry.hpp"
#include "sim/shard.hpp"

namespace odds::cli {

namespace fs = std::filesystem;

void add_report_option(po::options_description& d) {
    d.add_options()("report",
                    "also write report.html into the --out folder: the figures as charts, one "
                    "self-contained page (needs --out; 'odds report DIR' makes it later)");
}

bool report_wanted(const po::variables_map& vm) {
    if (!vm.count("report")) return false;
    if (!vm.count("out"))
        throw UsageError("--report writes report.html beside the CSV files: give --out DIR too");
    return true;
}

std::pair<fs::path, std::string> provenance_file(const fs::path& dir, const std::string& command,
                                                 const std::vector<std::string>& args,
                                                 const std::vector<std::string>& game_list) {
    // The command line rebuilt from what was parsed (sim/shard.hpp): the same for one process
    // and for shards merged, whatever the folder, threads or shards.
    std::ostringstream quiet;
    const auto vm = parse_command(command, args, Io{quiet, quiet});
    Provenance p{ODDS_VERSION, command, "", "",
                 command_line(command, vm ? canonical_args(*vm) : args)};
    for (const auto& g : game_list) {
        if ((" " + p.game + " ").find(" " + g + " ") != std::string::npos) continue;
        if (!p.game.empty()) p.game += ' ', p.rules_version += ' ';
        p.game += g;
        p.rules_version += find_game(g).rules_version;
    }
    return {dir / kProvenanceFile, provenance_csv(p)};
}

void write_report(const fs::path& dir, const std::string& command, Io io) {
    write_file_atomic(dir / kReportFile, report_html(dir));
    io.err << "odds " << command << ": wrote " << (dir / kReportFile).string() << '\n';
}

int cmd_report(const std::vector<std::string>& args, Io io) {
    const auto parsed = parse_command("report", args, io);
    if (!parsed) return 0;
    const po::variables_map& vm = *parsed;
    if (!vm.count("file"))
        throw UsageError(
            "which folder? give a folder that odds run, exact, compare, tournament, "
            "sweep or check wrote with --out");
    const fs::path dir = vm["file"].as<std::string>();
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
        throw UsageError("'" + dir.string() +
                         "' is not a folder; give a folder that odds wrote "
                         "with --out");
    if (report_inputs(dir).empty())
        throw UsageError(
            "'" + dir.string() +
            "' holds none of the files odds writes (summary.csv, compare.csv, "
            "tournament.csv, sweep.csv, check.csv); give a folder odds wrote with --out");
    write_report(dir, "report", io);
    return 0;
}

}  // namespace odds::cli
