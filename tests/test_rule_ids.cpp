// Every ruling under test, by id (issue 12). The rule ids are read from the shared rule book
// (RULINGS.md: `**B1 Quadrant.**`, `**D1** 75 ...`) and from the project's own rulings
// (docs/rules/PROJECT_RULINGS.md: the first column of its table). Each id must be carried as a
// tag by a registered, runnable test case (`[H5]`, `[M7a]`: read from Catch2's own registry, so
// a tag only counts if the test really exists) and cited in a code comment somewhere in engine/,
// policies/ or sim/ (.hpp, .cpp). Matching is exact: an id is a whole alphanumeric word, so M7a
// does not cite M7 and M71 is not M7.
//
// The paths come from tests/CMakeLists.txt: ODDS_SOURCE_DIR (the repository) and
// ODDS_SHARED_DIR (the shared folder, by default beside the repository).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#ifndef ODDS_SOURCE_DIR
#error "ODDS_SOURCE_DIR must be defined (tests/CMakeLists.txt)"
#endif
#ifndef ODDS_SHARED_DIR
#error "ODDS_SHARED_DIR must be defined (tests/CMakeLists.txt)"
#endif

namespace {

namespace fs = std::filesystem;

bool alnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }

// An id: an upper-case letter, digits, and at most one lower-case letter (B1, M7a, N9c).
bool is_rule_id(std::string_view w) {
    if (w.size() < 2 || !std::isupper(static_cast<unsigned char>(w[0]))) return false;
    std::size_t i = 1;
    while (i < w.size() && std::isdigit(static_cast<unsigned char>(w[i]))) ++i;
    if (i == 1) return false;
    if (i < w.size() && std::islower(static_cast<unsigned char>(w[i]))) ++i;
    return i == w.size();
}

// The ids a rulings text defines, in order of first appearance: a bold id at the head of a
// ruling (`**B1 Quadrant.**`, `**D1** 75 hit points`), or the first cell of a table row
// (`| B2a | Bosconian-D | ...`).
std::vector<std::string> rule_ids(std::string_view text) {
    std::vector<std::string> ids;
    auto add = [&](std::string_view id) {
        if (std::find(ids.begin(), ids.end(), id) == ids.end()) ids.emplace_back(id);
    };
    for (std::size_t at = text.find("**"); at != std::string_view::npos;
         at = text.find("**", at + 2)) {
        std::size_t end = at + 2;
        while (end < text.size() && alnum(text[end])) ++end;
        const std::string_view word = text.substr(at + 2, end - at - 2);
        if (end < text.size() && (text[end] == ' ' || text[end] == '*') && is_rule_id(word))
            add(word);
    }
    std::istringstream lines{std::string(text)};
    for (std::string line; std::getline(lines, line);) {
        if (line.empty() || line[0] != '|') continue;
        const std::size_t bar = line.find('|', 1);
        if (bar == std::string::npos) continue;
        std::string_view cell = std::string_view(line).substr(1, bar - 1);
        while (!cell.empty() && cell.front() == ' ') cell.remove_prefix(1);
        while (!cell.empty() && cell.back() == ' ') cell.remove_suffix(1);
        if (is_rule_id(cell)) add(cell);
    }
    return ids;
}

// The text of a C++ source's comments (// and /* */), one after another; string and character
// literals (raw strings included) are skipped, so an option's help text citing "(N1)" does not
// count as a comment.
std::string comments_of(std::string_view src) {
    std::string out;
    std::size_t i = 0;
    const std::size_t n = src.size();
    while (i < n) {
        const char c = src[i];
        if (c == '/' && i + 1 < n && src[i + 1] == '/') {
            const std::size_t end = std::min(src.find('\n', i), n);
            out.append(src.substr(i + 2, end - i - 2)).push_back('\n');
            i = end;
        } else if (c == '/' && i + 1 < n && src[i + 1] == '*') {
            const std::size_t end = std::min(src.find("*/", i + 2), n);
            out.append(src.substr(i + 2, end - i - 2)).push_back('\n');
            i = end + 2;
        } else if (c == 'R' && i + 1 < n && src[i + 1] == '"' && (i == 0 || !alnum(src[i - 1]))) {
            const std::size_t open = src.find('(', i + 2);
            if (open == std::string_view::npos) break;
            std::string close(1, ')');  // )delimiter"
            close.append(src.substr(i + 2, open - i - 2)).push_back('"');
            i = std::min(src.find(close, open + 1), n) + close.size();
        } else if (c == '"' ||
                   (c == '\'' &&
                    !(i > 0 && std::isxdigit(static_cast<unsigned char>(src[i - 1]))))) {
            // A literal (a ' between digits is a separator: 1'000).
            ++i;
            while (i < n && src[i] != c && src[i] != '\n') i += src[i] == '\\' ? 2 : 1;
            ++i;
        } else {
            ++i;
        }
    }
    return out;
}

// The ids cited in a text: every whole alphanumeric word shaped like an id.
std::set<std::string> cited_ids(std::string_view text) {
    std::set<std::string> ids;
    std::size_t i = 0;
    while (i < text.size()) {
        if (!alnum(text[i])) {
            ++i;
            continue;
        }
        std::size_t end = i;
        while (end < text.size() && alnum(text[end])) ++end;
        if (is_rule_id(text.substr(i, end - i))) ids.emplace(text.substr(i, end - i));
        i = end;
    }
    return ids;
}

// The tags of every test case registered with Catch2 that runs by default (hidden ones, `[.]`,
// do not put a ruling under test).
std::set<std::string> registered_tags() {
    std::set<std::string> tags;
    for (const Catch::TestCase& tc : Catch::getRegistryHub().getTestCaseRegistry().getAllTests()) {
        const Catch::TestCaseInfo& info = tc.getTestCaseInfo();
        if (info.isHidden()) continue;
        tags.insert(info.tags.begin(), info.tags.end());
    }
    return tags;
}

struct Gap {
    std::string id;
    bool tagged = false;
    bool cited = false;
};

// The ids not both tagged by a test and cited in a comment.
std::vector<Gap> uncovered(const std::vector<std::string>& ids, const std::set<std::string>& tags,
                           const std::set<std::string>& cited) {
    std::vector<Gap> gaps;
    for (const auto& id : ids) {
        Gap g{id, tags.count(id) > 0, cited.count(id) > 0};
        if (!g.tagged || !g.cited) gaps.push_back(g);
    }
    return gaps;
}

std::string describe(const Gap& g) {
    std::string s = "ruling " + g.id + ":";
    if (!g.tagged) s += " no test case carries the tag [" + g.id + "];";
    if (!g.cited) s += " no code comment in engine/, policies/ or sim/ cites it;";
    s.pop_back();
    return s;
}

std::optional<std::string> read_text(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return std::nullopt;
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

const fs::path kSource = fs::path(ODDS_SOURCE_DIR).lexically_normal();
const fs::path kShared = fs::path(ODDS_SHARED_DIR).lexically_normal();

// Reads a rulings file and its ids; fails the test, naming the path, when it cannot.
std::vector<std::string> ids_from(const fs::path& path) {
    const auto text = read_text(path);
    if (!text)
        FAIL("cannot read " << path.string() << " (the shared folder is ODDS_SHARED_DIR in CMake)");
    auto ids = rule_ids(*text);
    if (ids.empty()) FAIL("no rule ids found in " << path.string());
    return ids;
}

// Every id cited in a comment of the .hpp and .cpp files under engine/, policies/ and sim/ that
// play or decide: a game folder's tests (test_*.cpp) and benchmarks (bench*: bench.cpp,
// bench_naive.hpp) do not count, so a ruling cited only by its test is still reported as uncited.
std::set<std::string> cited_in_sources() {
    std::set<std::string> cited;
    for (const char* dir : {"engine", "policies", "sim"}) {
        const fs::path root = kSource / dir;
        if (!fs::is_directory(root)) FAIL("cannot read the source folder " << root.string());
        for (const auto& entry : fs::recursive_directory_iterator(root)) {
            const fs::path& p = entry.path();
            if (!entry.is_regular_file() || (p.extension() != ".hpp" && p.extension() != ".cpp"))
                continue;
            const std::string name = p.filename().string();
            if (name.rfind("test_", 0) == 0 || name.rfind("bench", 0) == 0) continue;
            const auto text = read_text(p);
            if (!text) FAIL("cannot read " << p.string());
            cited.merge(cited_ids(comments_of(*text)));
        }
    }
    return cited;
}

// The shared rule book, the project's rulings, and each game's own page (engine/GAME/RULES.md),
// so a new game's rulings are checked without an edit outside its folder (issue 31).
std::vector<std::string> all_rule_ids() {
    auto ids = ids_from(kShared / "RULINGS.md");
    std::vector<fs::path> pages{kSource / "docs" / "rules" / "PROJECT_RULINGS.md"};
    std::vector<fs::path> games;
    for (const auto& entry : fs::directory_iterator(kSource / "engine"))
        if (entry.is_directory() && fs::is_regular_file(entry.path() / "RULES.md"))
            games.push_back(entry.path() / "RULES.md");
    std::sort(games.begin(), games.end());
    if (games.empty()) FAIL("no engine/*/RULES.md under " << kSource.string());
    pages.insert(pages.end(), games.begin(), games.end());
    for (const auto& page : pages)
        for (auto& id : ids_from(page))
            if (std::find(ids.begin(), ids.end(), id) == ids.end()) ids.push_back(id);
    return ids;
}

}  // namespace

TEST_CASE("every ruling is tagged by a test and cited in the code, by exact id", "[rules][ids]") {
    const auto ids = all_rule_ids();
    const auto gaps = uncovered(ids, registered_tags(), cited_in_sources());
    if (!gaps.empty()) {
        std::string report = std::to_string(gaps.size()) + " of " + std::to_string(ids.size()) +
                             " rule ids are not under test by id:";
        for (const Gap& g : gaps) report += "\n  " + describe(g);
        FAIL_CHECK(report);
    }
    CHECK(gaps.empty());
}

TEST_CASE("the rule-id check finds ids exactly and reports a new uncovered one", "[rules][ids]") {
    SECTION("ids: bold heads and first table cells, nothing else") {
        const std::string text =
            "- **B1 Quadrant.** Sectors (**option** `sectors=36`), see B2.\n"
            "- **D1** 75 hit points. **M10** Ten. **X** not. **M7ab** not.\n"
            "| id | game |\n|---|---|\n| B2a | Bosconian-D |\n| note | M7c |\n";
        CHECK(rule_ids(text) == std::vector<std::string>{"B1", "D1", "M10", "B2a"});
    }
    SECTION("citations: whole words in comments, not strings") {
        const auto cited = cited_ids(comments_of(
            "int x = 1'000;  // M7a: and M71, kM7, N2a's dice, (H5)\n"
            "const char* s = \"N1 in a string\"; /* B3b\n D2a */ auto r = R\"x(B9 // M9)x\";\n"
            "char q = '\"'; // N7a\n"));
        CHECK(cited == std::set<std::string>{"M7a", "M71", "N2a", "H5", "B3b", "D2a", "N7a"});
        CHECK(cited.count("M7") == 0);  // M7a does not cite M7, nor does M71 or kM7
        CHECK(cited.count("N1") == 0);  // a string literal is not a comment
        CHECK(cited.count("B9") == 0);  // nor is a raw string
    }
    SECTION("a new ruling nobody tests or cites is reported, both ways") {
        const auto book = read_text(kShared / "RULINGS.md");
        if (!book) FAIL("cannot read " << (kShared / "RULINGS.md").string());
        auto ids = rule_ids(*book + "\n- **Z9 Test.** A ruling nobody has tested or cited yet.\n");
        REQUIRE(std::find(ids.begin(), ids.end(), "Z9") != ids.end());
        const auto tags = registered_tags();
        const auto cited = cited_in_sources();
        // Whatever the real rulings' state, the new id adds exactly one gap, missing both.
        const auto before = uncovered(all_rule_ids(), tags, cited);
        for (auto& id : ids_from(kSource / "docs" / "rules" / "PROJECT_RULINGS.md"))
            if (std::find(ids.begin(), ids.end(), id) == ids.end()) ids.push_back(id);
        const auto gaps = uncovered(ids, tags, cited);
        REQUIRE(gaps.size() == before.size() + 1);
        const auto z9 =
            std::find_if(gaps.begin(), gaps.end(), [](const Gap& g) { return g.id == "Z9"; });
        REQUIRE(z9 != gaps.end());
        CHECK_FALSE(z9->tagged);
        CHECK_FALSE(z9->cited);
        CHECK(describe(*z9) ==
              "ruling Z9: no test case carries the tag [Z9]; no code comment in engine/, policies/ "
              "or sim/ cites it");
        // Tagged but not cited, and cited but not tagged, are each a gap too.
        CHECK(uncovered({"Z9"}, {"Z9"}, {}).size() == 1);
        CHECK(uncovered({"Z9"}, {}, {"Z9"}).size() == 1);
        CHECK(uncovered({"Z9"}, {"Z9"}, {"Z9"}).empty());
        CHECK(uncovered({"M7"}, {"M7a"}, {"M7a"}).size() == 1);  // exact ids only
    }
}
