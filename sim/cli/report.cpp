#include "sim/cli/report.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <sstream>
#include <stdexcept>
#include <system_error>

#include "engine/line_reader.hpp"
#include "reports/csv.hpp"
#include "reports/html_report.hpp"
#include "sim/cli/args.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/spec.hpp"
#include "sim/registry.hpp"

namespace odds::cli {

namespace fs = std::filesystem;

void add_report_option(po::options_description& d) {
    d.add_options()("report",
                    "also write report.html into the --out folder: the figures as charts, one "
                    "self-contained page (needs --out; 'odds report DIR' makes it later)");
}

bool report_wanted(const Args& opt) {
    if (!opt.report) return false;
    if (!opt.out)
        throw UsageError("--report writes report.html beside the CSV files: give --out DIR too");
    return true;
}

void write_out_files(std::vector<std::pair<fs::path, std::string>> files, const fs::path& dir,
                     const std::string& command, const std::vector<std::string>& line,
                     const std::vector<std::string>& game_list) {
    check_one_line(line);
    Provenance p{ODDS_VERSION, command, "", "", command_line(command, line)};
    std::string metrics;
    for (const auto& g : game_list) {
        if ((" " + p.game + " ").find(" " + g + " ") != std::string::npos) continue;
        if (!p.game.empty()) p.game += ' ', p.rules_version += ' ';
        p.game += g;
        const GameEntry& game = find_game(g);
        p.rules_version += game.rules_version;
        metrics += metrics_csv(g, game.prepare({}, {})->metrics, metrics.empty());
    }
    files.emplace_back(dir / kProvenanceFile, provenance_csv(p));
    if (!metrics.empty()) files.emplace_back(dir / kMetricsFile, std::move(metrics));
    write_files_atomic(files);
}

void write_report(const fs::path& dir, const std::string& command, Io io) {
    write_file_atomic(dir / kReportFile, report_html(dir));
    io.err << "odds " << command << ": wrote " << (dir / kReportFile).string() << '\n';
}

namespace {

// A file the report reads, as odds writes it: a header of column names (lower-case letters,
// digits, '_', '.'), at least one row, and every row as many fields as the header. An empty file, a
// header alone or anything else (a file cut short, another program's) is bad input, exit 2.
// `nothing_played`: the folder is a run stopped inside its first chunk (summary.csv says 0
// playouts, partial), whose distributions.csv and survival.csv hold a header alone, as odds
// wrote them: the report draws what there is (nothing) rather than call the folder foreign.
void check_report_input(const fs::path& file, bool nothing_played) {
    // Within the documented bound (docs/output.md): a 1 GiB file was read whole, 4 GB and 50 s,
    // before it was refused.
    const std::string text =
        read_input_file(file.string(), "the report's input", kMaxDataFile, kMaxDataLine);
    const auto bad = [&](const std::string& why) {
        return UsageError("'" + file.string() + "' is not a file odds wrote: " + why +
                          "; give a folder odds wrote with --out (or write it again)");
    };
    if (text.empty()) throw bad("it is empty");
    const CsvTable t = parse_csv(text);
    // Column names as odds writes them: metrics and fields (lower case, digits, '_'), and the
    // rule options a sweep or a tune varies, whose names hold dots (sniper.area1.open).
    const auto is_column = [](const std::string& c) {
        return !c.empty() && std::all_of(c.begin(), c.end(), [](char ch) {
            return (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_' || ch == '.';
        });
    };
    if (t.header.size() < 2 || !std::all_of(t.header.begin(), t.header.end(), is_column))
        throw bad("its first line is not a header of column names");
    if (t.rows.empty()) {
        const auto name = file.filename();
        if (nothing_played && (name == "distributions.csv" || name == "survival.csv")) return;
        throw bad("it holds a header and no rows");
    }
    for (std::size_t r = 0; r < t.rows.size(); ++r)
        if (t.rows[r].size() != t.header.size())
            throw bad("row " + std::to_string(r + 1) + " has " + std::to_string(t.rows[r].size()) +
                      " fields, the header " + std::to_string(t.header.size()));
}

// summary.csv is a partial run of 0 playouts in every row (a run stopped in its first chunk).
bool played_nothing(const fs::path& summary) {
    std::error_code ec;
    if (!fs::is_regular_file(summary, ec)) return false;
    const CsvTable t =
        parse_csv(read_input_file(summary.string(), "summary.csv", kMaxDataFile, kMaxDataLine));
    const auto column = [&](const char* name) {
        const auto it = std::find(t.header.begin(), t.header.end(), name);
        return static_cast<std::size_t>(it - t.header.begin());
    };
    const std::size_t playouts = column("playouts"), status = column("status");
    if (t.rows.empty() || playouts >= t.header.size() || status >= t.header.size()) return false;
    return std::all_of(t.rows.begin(), t.rows.end(), [&](const auto& row) {
        return row.size() == t.header.size() && row[playouts] == "0" && row[status] == "partial";
    });
}

// report.html can be written into `dir`: it is not a folder, and a file can be made beside it.
void check_report_writable(const fs::path& dir) {
    const fs::path page = dir / kReportFile;
    std::error_code ec;
    if (fs::exists(page, ec) && !fs::is_regular_file(page, ec))
        throw UsageError("'" + page.string() +
                         "' exists and is not a file; remove it to write the report");
    const fs::path probe = dir / (".odds-probe-" + std::to_string(::getpid()));
    std::FILE* f = std::fopen(probe.c_str(), "wb");
    if (!f)
        throw UsageError("'" + dir.string() + "' is not writable (" +
                         std::error_code(errno, std::generic_category()).message() +
                         "): report.html cannot be written there");
    std::fclose(f);
    fs::remove(probe, ec);
}

}  // namespace

int cmd_report(const Args& opt, Io io) {
    if (opt.files.empty())
        throw UsageError(
            "which folder? give a folder that odds run, exact, compare, tournament, "
            "sweep or check wrote with --out");
    const fs::path dir = opt.files.front();
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
        throw UsageError("'" + dir.string() +
                         "' is not a folder; give a folder that odds wrote "
                         "with --out");
    const auto inputs = report_inputs(dir);
    if (inputs.empty())
        throw UsageError(
            "'" + dir.string() +
            "' holds none of the files odds writes (summary.csv, compare.csv, "
            "tournament.csv, sweep.csv, check.csv); give a folder odds wrote with --out");
    const bool nothing_played = played_nothing(dir / "summary.csv");
    for (const auto& name : inputs) check_report_input(dir / name, nothing_played);
    check_report_writable(dir);
    write_report(dir, "report", io);
    return 0;
}

const CommandSpec report_spec = {
    "report",
    "the HTML report of a folder of CSV files odds wrote",
    "odds report DIR",
    "Writes DIR/report.html from the CSV files that odds run, exact, compare, tournament, sweep "
    "or check wrote into DIR with --out: one self-contained page (no network, no script) with "
    "each figure as a chart, its numbers in a table under it, and the scenario, policies, seed, "
    "playouts, rules version and command line that made them (docs/output.md). --report on "
    "those commands writes the same page.",
    {"odds report runs/bosconian", "odds run bosconian --out runs/bosconian --report"},
    "file",
    1,
    no_options,
    cmd_report};

}  // namespace odds::cli
