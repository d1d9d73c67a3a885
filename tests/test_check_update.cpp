// odds check for a designer's CI (docs/ci.md): a baseline recorded under a variant stays an exact
// check given that variant again; --metrics scopes a check; --update accepts the balance as it
// now plays, rewriting the baseline and saying what moved.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "sim/cli/cli.hpp"
#include "sim/registry.hpp"
#include "tests/helpers.hpp"

using namespace odds;
namespace fs = std::filesystem;

namespace {

using test::cli;

fs::path temp(const std::string& name) { return test::temp_path("check-update", name); }

void write(const fs::path& p, const std::string& text) { std::ofstream(p) << text; }

// The file's lines that begin with `key` (each with its line break).
std::string lines_of(const fs::path& p, const std::string& key) {
    std::string out;
    std::ifstream in(p);
    for (std::string line; std::getline(in, line);)
        if (line.rfind(key, 0) == 0) out += line + '\n';
    return out;
}

void replace(const fs::path& p, const std::string& from, const std::string& to) {
    std::string text = test::slurp(p);
    const auto at = text.find(from);
    REQUIRE(at != std::string::npos);
    text.replace(at, from.size(), to);
    write(p, text);
}

}  // namespace

TEST_CASE("a baseline recorded under a variant stays an exact check given that variant again",
          "[check][variant]") {
    const auto variant = temp("mine.toml");
    write(variant, "hull = 95\n[cosmo_mine]\ndamage = \"3d6\"\n");
    const auto file = temp("variant.baseline");
    REQUIRE(cli({"baseline", "bosconian", "-n", "20000", "--rules", variant.string(), "--out",
                 file.string(), "--no-progress"})
                .code == 0);
    CHECK(lines_of(file, "set ") == "set cosmo_mine.damage=3d6\nset hull=95\n");

    // The same file again, and the same variant in other spellings and orders: exact.
    for (const std::vector<std::string>& given :
         {std::vector<std::string>{"--rules", variant.string()},
          {"--set", "hull=095", "--set", "cosmo_mine.damage=3d6+0"},
          {"--set", "cosmo_mine.damage=3d6"},
          {}}) {
        std::vector<std::string> args{"check", file.string(), "--no-progress"};
        args.insert(args.end(), given.begin(), given.end());
        const auto r = cli(args);
        INFO(r.out << r.err);
        CHECK(r.code == 0);
        CHECK(r.out.find("exact check") != std::string::npos);
    }
    // Another variant: statistical, and it moved.
    const auto other = cli({"check", file.string(), "--set", "hull=90", "--no-progress"});
    CHECK(other.code == 1);
    CHECK(other.out.find("statistical check (changed seed, playouts or options)") !=
          std::string::npos);
    // A kernel that plays differently is still caught under the variant.
    test::move_one_loss_to_a_win(file);
    const auto tampered = cli({"check", file.string(), "--rules", variant.string()});
    CHECK(tampered.code == 1);
    CHECK(tampered.out.find("the kernel plays differently") != std::string::npos);
    fs::remove(file);
    fs::remove(variant);
}

TEST_CASE("check --metrics checks only the metrics named", "[check][metrics]") {
    const auto file = temp("metrics.baseline");
    REQUIRE(cli({"baseline", "bosconian", "-n", "20000", "--out", file.string(), "--no-progress"})
                .code == 0);
    test::move_one_loss_to_a_win(file);  // the win metric alone differs
    const auto without = cli({"check", file.string(), "--metrics", "damage,sectors_entered"});
    INFO(without.out);
    CHECK(without.code == 0);
    CHECK(without.out.find("not checked (--metrics): win, bases_destroyed") != std::string::npos);
    CHECK(without.out.find(" win ") == std::string::npos);
    const auto with = cli({"check", file.string(), "--metrics", "win"});
    CHECK(with.code == 1);
    CHECK(with.out.find("MOVED      win") != std::string::npos);
    // The statistical test's false-alarm rate is spread over the metrics checked alone.
    const auto one =
        cli({"check", file.string(), "--metrics", "damage", "--set", "hull=95", "--no-progress"});
    CHECK(one.out.find("false-alarm rate 0.001 per metric / 1 metrics") != std::string::npos);

    // Bad lists: one line each, exit 2.
    const auto dir = temp("metrics-out");
    for (const auto& [list, says] : std::vector<std::pair<std::string, std::string>>{
             {"win,dammage", "no file given checks a metric 'dammage' (did you mean 'damage'?)"},
             {"win,", "an empty name"},
             {"win,win", "names 'win' twice"}}) {
        const auto r = cli({"check", file.string(), "--metrics", list, "--out", dir.string()});
        test::check_refused(r, says, dir);
    }
    // Two files: each name recorded by some file; a file left with nothing to check is refused.
    const auto duel = temp("duel.baseline");
    REQUIRE(
        cli({"baseline", "dimension-duel", "-n", "2000", "--out", duel.string(), "--no-progress"})
            .code == 0);
    const auto none = cli({"check", file.string(), duel.string(), "--metrics", "win"});
    CHECK(none.code == 2);
    CHECK(none.err.find(duel.string() + ": --metrics 'win' names none of its metrics") !=
          std::string::npos);
    fs::remove(file);
    fs::remove(duel);
}

TEST_CASE("check --update rewrites a baseline from this build and says what moved",
          "[check][update]") {
    const auto file = temp("update.baseline");
    REQUIRE(cli({"baseline", "bosconian", "-n", "20000", "--seed", "7", "--out", file.string(),
                 "--no-progress"})
                .code == 0);
    const std::string fresh_metrics = lines_of(file, "metric ");
    const std::string version = std::string(find_game("bosconian").rules_version);
    // An older rules version, a comment, and counts this build does not play.
    replace(file, "rules_version " + version, "rules_version bosconian/1\n# ours: hull 100");
    test::move_one_loss_to_a_win(file);
    const std::string before = test::slurp(file);
    REQUIRE(cli({"check", file.string()}).out.find("statistical check (rules version") !=
            std::string::npos);

    // Refused before anything is played: the file untouched.
    for (const std::vector<std::string>& bad : {std::vector<std::string>{"--seed", "3"},
                                                {"--playouts", "1000"},
                                                {"--metrics", "win"},
                                                {"--sequential"},
                                                {"--max-playouts", "5000"},
                                                {"--shard", "1/2"}}) {
        std::vector<std::string> args{"check", file.string(), "--update"};
        args.insert(args.end(), bad.begin(), bad.end());
        const auto r = cli(args);
        INFO(bad[0]);
        CHECK(r.code == 2);
        CHECK(r.err.find(bad[0] + " cannot go with it") != std::string::npos);
    }
    CHECK(test::slurp(file) == before);

    const auto updated = cli({"check", file.string(), "--update", "--no-progress"});
    INFO(updated.out << updated.err);
    CHECK(updated.code == 0);
    CHECK(updated.out.find("updated " + file.string() + ": rules version bosconian/1 -> " +
                           version + "; ") != std::string::npos);
    // The rewritten file: this build's version and counts (those odds baseline records), its
    // comment, seed and playouts kept; it now passes an exact check.
    CHECK(lines_of(file, "rules_version") == "rules_version " + version + '\n');
    CHECK(lines_of(file, "metric ") == fresh_metrics);
    CHECK(lines_of(file, "# ours") == "# ours: hull 100\n");
    CHECK(lines_of(file, "seed") == "seed 7\n");
    CHECK(lines_of(file, "playouts") == "playouts 20000\n");
    const auto exact = cli({"check", file.string()});
    CHECK(exact.code == 0);
    CHECK(exact.out.find("exact check") != std::string::npos);

    // A variant accepted: recorded as the baseline's, which then checks exactly under it.
    const auto accepted =
        cli({"check", file.string(), "--update", "--set", "hull=95", "--no-progress"});
    CHECK(accepted.code == 0);
    CHECK(accepted.out.find("damage, sectors_entered, bases_destroyed moved") != std::string::npos);
    CHECK(lines_of(file, "set ") == "set hull=95\n");
    CHECK(lines_of(file, "scenario").find("hull=95") != std::string::npos);
    CHECK(cli({"check", file.string()}).out.find("exact check") != std::string::npos);
    CHECK(cli({"check", file.string(), "--set", "hull=95"}).code == 0);

    // A targets file states goals: nothing to update.
    const auto targets = temp("update.targets");
    write(targets, "odds-targets 1\ngame bosconian\ntarget win at least 0.01\n");
    const auto refused = cli({"check", targets.string(), "--update"});
    CHECK(refused.code == 2);
    CHECK(refused.err.find("is a targets file") != std::string::npos);
    fs::remove(file);
    fs::remove(targets);
}
