// One room per game, its layers one-way (docs/architecture.md): in every registered game's folder
// engine/GAME/, the kernel includes neither its policies, nor its exact solver, nor anything of
// sim/ or reports/; the policies include no solver, registration or sim/; the exact solver no
// registration or sim/ (runner, CLI); the registration nothing of the command line. The shared
// rooms (engine's own files, policies/, sim/, reports/) include no game's header; and sim/'s
// machinery nothing of its command-line wing, sim/cli/, where every command lives (issue 41).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "sim/registry.hpp"

namespace fs = std::filesystem;

namespace {

const fs::path kSource = ODDS_SOURCE_DIR;

std::vector<std::string> includes_of(const fs::path& file) {
    std::ifstream in(file);
    std::vector<std::string> out;
    static const std::regex inc(R"re(^\s*#\s*include\s*"([^"]+)")re");
    std::smatch m;
    for (std::string line; std::getline(in, line);)
        if (std::regex_search(line, m, inc)) out.push_back(m[1]);
    return out;
}

enum class Layer { kernel, policies, exact, registration, test, other };

Layer layer_of(const fs::path& file) {
    const std::string name = file.filename().string();
    if (name == "policies.hpp") return Layer::policies;
    // The shape of a game along its length reads the exact solver's values: the same layer.
    if (name == "exact.hpp" || name == "exact.cpp" || name == "shape.hpp" || name == "shape.cpp")
        return Layer::exact;
    // odds shape's hook (shape_run.*) samples games through the runner: the registration's layer.
    if (name == "register.cpp" || name == "shape_run.hpp" || name == "shape_run.cpp")
        return Layer::registration;
    if (name.rfind("test_", 0) == 0 || name == "bench.cpp") return Layer::test;
    const auto ext = file.extension();
    if (ext == ".hpp" || ext == ".cpp") return Layer::kernel;
    return Layer::other;
}

// The folder of a registered game: its name with '-' spelled '_'.
std::string folder_of(std::string_view game) {
    std::string f(game);
    for (auto& c : f)
        if (c == '-') c = '_';
    return f;
}

// What `file` (of `layer`, in game folder `dir`) may not include, as a reason; "" when allowed.
std::string forbidden(Layer layer, const std::string& dir, const std::string& inc) {
    const std::string own = "engine/" + dir + "/";
    const bool sim = inc.rfind("sim/", 0) == 0, reports = inc.rfind("reports/", 0) == 0;
    const bool policies = inc == own + "policies.hpp", exact = inc == own + "exact.hpp";
    switch (layer) {
        case Layer::kernel:
            if (sim || reports) return "the kernel includes the runner, CLI or reports";
            if (policies) return "the kernel includes its policies";
            if (exact) return "the kernel includes its exact solver";
            if (inc.rfind("policies/", 0) == 0) return "the kernel includes policy code";
            return "";
        case Layer::policies:
            if (sim) return "the policies include the runner or CLI";
            if (exact) return "the policies include the exact solver";
            return "";
        case Layer::exact:
            if (sim) return "the exact solver includes the runner or CLI";
            return "";
        case Layer::registration:
            if (inc.rfind("sim/cli/", 0) == 0)
                return "the registration includes the command line (sim/cli/)";
            return "";
        default:
            return "";
    }
}

}  // namespace

TEST_CASE("every game's layers include one way: kernel, policies, exact solver, registration",
          "[layers]") {
    for (const auto& g : odds::games()) {
        const std::string dir = folder_of(g.name);
        const fs::path folder = kSource / "engine" / dir;
        INFO("game " << g.name << " in " << folder.string());
        REQUIRE(fs::is_directory(folder));
        CHECK(fs::exists(folder / "RULES.md"));
        CHECK(fs::exists(folder / "register.cpp"));
        CHECK(fs::exists(folder / "game.cmake"));
        int kernel_files = 0;
        for (const auto& e : fs::directory_iterator(folder)) {
            const Layer layer = layer_of(e.path());
            kernel_files += layer == Layer::kernel;
            for (const auto& inc : includes_of(e.path())) {
                INFO(e.path().filename().string() << " includes \"" << inc << "\"");
                CHECK(forbidden(layer, dir, inc).empty());
                // A game's files include no other game's.
                if (inc.rfind("engine/", 0) == 0 && inc.find('/', 7) != std::string::npos)
                    CHECK(inc.rfind("engine/" + dir + "/", 0) == 0);
            }
        }
        CHECK(kernel_files > 0);
    }
}

TEST_CASE("the shared rooms name no game: no file of theirs includes a game's header", "[layers]") {
    std::vector<fs::path> shared;
    for (const char* room : {"policies", "sim", "reports"})
        for (const auto& e : fs::recursive_directory_iterator(kSource / room))
            shared.push_back(e.path());
    for (const auto& e : fs::directory_iterator(kSource / "engine"))
        if (e.is_regular_file()) shared.push_back(e.path());
    CHECK(shared.size() > 20);
    for (const auto& f : shared)
        for (const auto& inc : includes_of(f)) {
            INFO(f.string() << " includes \"" << inc << "\"");
            const bool game_header =
                inc.rfind("engine/", 0) == 0 && inc.find('/', 7) != std::string::npos;
            CHECK_FALSE(game_header);
        }
}

TEST_CASE("the layer check itself: a kernel including its policies or the CLI is caught",
          "[layers]") {
    CHECK_FALSE(forbidden(Layer::kernel, "naval", "engine/naval/policies.hpp").empty());
    CHECK_FALSE(forbidden(Layer::kernel, "naval", "sim/registry.hpp").empty());
    CHECK_FALSE(forbidden(Layer::policies, "naval", "sim/cli/cli.hpp").empty());
    CHECK_FALSE(forbidden(Layer::exact, "bosconian", "sim/runner.hpp").empty());
    CHECK(forbidden(Layer::kernel, "naval", "engine/hex.hpp").empty());
    CHECK(forbidden(Layer::registration, "naval", "sim/game_run.hpp").empty());
    CHECK(layer_of("engine/msc/msc_play.hpp") == Layer::kernel);
    CHECK(layer_of("engine/msc/test_map.cpp") == Layer::test);
}

TEST_CASE("sim/'s machinery includes nothing of its command-line wing, and holds no command",
          "[layers]") {
    // The wing (sim/cli/: the dispatcher, one module a command) sees the machinery; the machinery
    // (runner, executor, shards, file formats, tune's search, the registry) is used by it, and
    // by a game's registration and the benchmarks, without the command line (tests may drive it).
    // The web page's door (sim/web/) is the commands' second front door: it runs them too.
    std::vector<fs::path> outside;
    for (const char* room : {"sim", "reports", "policies", "engine", "benchmarks"})
        for (const auto& e : fs::recursive_directory_iterator(kSource / room))
            if (e.is_regular_file() && e.path().parent_path() != kSource / "sim" / "cli" &&
                e.path().parent_path() != kSource / "sim" / "web" &&
                (e.path().extension() == ".cpp" || e.path().extension() == ".hpp") &&
                layer_of(e.path()) != Layer::test)  // a game's tests may drive the CLI
                outside.push_back(e.path());
    CHECK(outside.size() > 50);
    static const std::regex command(R"(\bint\s+cmd_[a-z_]+\s*\()");
    for (const auto& f : outside) {
        for (const auto& inc : includes_of(f)) {
            INFO(f.string() << " includes \"" << inc << "\"");
            CHECK(inc.rfind("sim/cli/", 0) != 0);
        }
        std::ifstream in(f);
        const std::string text((std::istreambuf_iterator<char>(in)), {});
        INFO(f.string() << " defines a command (cmd_...): commands live in sim/cli/");
        CHECK_FALSE(std::regex_search(text, command));
    }
    CHECK_FALSE(forbidden(Layer::registration, "naval", "sim/cli/common.hpp").empty());
}

TEST_CASE("below the dispatcher no command reads a parsed option by its name", "[layers]") {
    // Issue 41: the dispatcher (sim/cli/spec.cpp parses, sim/cli/args.cpp binds each option to
    // its field of Args once); every command and helper reads Args' typed fields.
    static const std::regex lookup(R"(variables_map|\bvm\s*\[|\bvm\s*\.\s*count)");
    int files = 0;
    for (const auto& e : fs::directory_iterator(kSource / "sim" / "cli")) {
        const std::string name = e.path().filename().string();
        if (name == "spec.cpp" || name == "spec.hpp" || name == "args.cpp" || name == "args.hpp" ||
            name == "common.cpp" || name == "common.hpp")  // the dispatcher: parse and bind
            continue;
        ++files;
        std::ifstream in(e.path());
        int line_no = 0;
        for (std::string line; std::getline(in, line);) {
            ++line_no;
            INFO(e.path().string() << ":" << line_no << ": " << line);
            CHECK_FALSE(std::regex_search(line, lookup));
        }
    }
    CHECK(files > 10);
}
