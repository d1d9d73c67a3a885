// The runner: results depend only on the seed, never on the thread count; chunks merge in order;
// a stop request leaves an exact prefix of chunks.
#include <atomic>
#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <new>
#include <sstream>
#include <thread>
#include "tests/helpers.hpp"

#include <unistd.h>

#include "engine/bosconian/bosconian.hpp"
#include "engine/bosconian/policies.hpp"
#include "engine/dice.hpp"
#include "sim/cli/cli.hpp"
#include "sim/registry.hpp"

using namespace odds;
namespace fs = std::filesystem;

namespace {

fs::path temp_dir(const std::string& name) {
    const auto p =
        fs::temp_directory_path() / ("odds-test-" + std::to_string(::getpid()) + "-" + name);
    fs::remove_all(p);
    return p;
}

int cli(std::vector<std::string> args, std::string* out = nullptr, std::string* err = nullptr) {
    args.insert(args.begin(), "odds");
    std::vector<const char*> argv;
    for (const auto& a : args) argv.push_back(a.c_str());
    std::ostringstream o, e;
    const int rc = odds_main(static_cast<int>(argv.size()), argv.data(), o, e);
    if (out) *out = o.str();
    if (err) *err = e.str();
    return rc;
}

}  // namespace

TEST_CASE("threads 1, 2 and 3 write byte-identical files", "[runner][determinism]") {
    for (const std::string game : {"bosconian", "dimension-duel"}) {
        INFO(game);
        std::vector<fs::path> dirs;
        for (int threads : {1, 2, 3}) {
            dirs.push_back(temp_dir(game + "-threads" + std::to_string(threads)));
            // 100k playouts: seven chunks, so threads really interleave.
            REQUIRE(cli({"run", game, "--playouts", "100k", "--seed", "42", "--threads",
                         std::to_string(threads), "--out", dirs.back().string()}) == 0);
        }
        for (const char* file : {"summary.csv", "distributions.csv", "survival.csv"}) {
            INFO(file);
            const auto first = test::slurp(dirs[0] / file);
            CHECK(first.size() > 100);
            CHECK(test::slurp(dirs[1] / file) == first);
            CHECK(test::slurp(dirs[2] / file) == first);
        }
        for (const auto& d : dirs) fs::remove_all(d);
    }
}

TEST_CASE("a run equals its chunks played one by one and merged in order", "[runner]") {
    const auto prepared = find_game("bosconian").prepare({}, {});
    RunConfig cfg;
    cfg.playouts = 50'000;
    cfg.seed = 9;
    cfg.threads = 2;
    cfg.chunk_size = 16384;
    const Tally whole = prepared->run(cfg, {}).tally;
    CHECK(whole.playouts() == 50'000);

    // Chunk k of a run plays with Dice(stream_seed(seed, k)): replay the four chunks by hand.
    Tally merged(prepared->metrics, prepared->survivals);
    const auto options = bosconian::parse_options({});
    bosconian::RulesAsWritten policy;
    std::int32_t v[kMaxMetrics];
    for (std::uint64_t k = 0; k < 4; ++k) {
        Dice dice(stream_seed(cfg.seed, k));
        const std::uint64_t n = std::min<std::uint64_t>(16384, 50'000 - k * 16384);
        for (std::uint64_t i = 0; i < n; ++i) {
            bosconian::to_metrics(bosconian::play(options, policy, dice), v);
            merged.add(v);
        }
    }
    CHECK(merged == whole);
}

TEST_CASE("a stop request before the first chunk leaves an empty, partial result", "[runner]") {
    const auto prepared = find_game("bosconian").prepare({}, {});
    std::atomic<bool> stop{true};
    RunControl ctl;
    ctl.stop = &stop;
    RunConfig cfg;
    cfg.playouts = 1'000'000;
    cfg.threads = 2;
    const RunResult r = prepared->run(cfg, ctl);
    CHECK(r.partial);
    CHECK(r.tally.playouts() == 0);
}

TEST_CASE("different seeds give different results", "[runner]") {
    std::string a, b;
    REQUIRE(cli({"run", "bosconian", "-n", "20000", "--seed", "1"}, &a) == 0);
    REQUIRE(cli({"run", "bosconian", "-n", "20000", "--seed", "2"}, &b) == 0);
    CHECK(a != b);
}

namespace {
// An accumulator other than a Tally: the chunks it was given (first playout, count) and each
// chunk's first dice word, in merge order.
struct Chunks {
    std::vector<std::pair<std::uint64_t, std::uint64_t>> spans;
    std::vector<std::uint64_t> words;
    void merge(const Chunks& other) {
        spans.insert(spans.end(), other.spans.begin(), other.spans.end());
        words.insert(words.end(), other.words.begin(), other.words.end());
    }
};
}  // namespace

TEST_CASE("run_chunks tells each chunk its first playout; any accumulator merges in chunk order",
          "[runner]") {
    for (unsigned threads : {1u, 3u}) {
        INFO(threads << " threads");
        const RunConfig cfg{.playouts = 10, .seed = 5, .threads = threads, .chunk_size = 3};
        const auto r = run_chunks(cfg, Chunks{},
                                  [](Dice& dice, std::uint64_t first, std::uint64_t n, Chunks& c) {
                                      c.spans.emplace_back(first, n);
                                      c.words.push_back(dice.word());
                                  });
        CHECK_FALSE(r.partial);
        using Span = std::pair<std::uint64_t, std::uint64_t>;
        CHECK(r.tally.spans == std::vector<Span>{{0, 3}, {3, 3}, {6, 3}, {9, 1}});
        REQUIRE(r.tally.words.size() == 4);
        for (std::uint64_t k = 0; k < 4; ++k)
            CHECK(r.tally.words[k] == Dice(stream_seed(5, k)).word());
    }
    // Stopped during chunk 2 (one thread: no other chunk under way): chunks 0-2, partial.
    std::atomic<bool> stop{false};
    RunControl ctl;
    ctl.stop = &stop;
    const RunConfig cfg{.playouts = 100, .seed = 5, .threads = 1, .chunk_size = 10};
    const auto r = run_chunks(
        cfg, Chunks{},
        [&](Dice&, std::uint64_t first, std::uint64_t n, Chunks& c) {
            c.spans.emplace_back(first, n);
            if (first == 20) stop = true;
        },
        ctl);
    CHECK(r.partial);
    CHECK(r.tally.spans ==
          std::vector<std::pair<std::uint64_t, std::uint64_t>>{{0, 10}, {10, 10}, {20, 10}});
}

namespace {
// An accumulator that counts how many of its kind are alive at once (run_chunks's memory).
struct Counted {
    static inline std::atomic<int> alive{0}, most{0};
    Counted() { born(); }
    Counted(const Counted&) { born(); }
    Counted(Counted&&) noexcept { born(); }
    Counted& operator=(const Counted&) = default;
    ~Counted() { --alive; }
    void merge(const Counted&) {}
    static void born() {
        const int now = ++alive;
        for (int m = most.load(); now > m && !most.compare_exchange_weak(m, now);) {}
    }
};
}  // namespace

// Issue 30: memory without bound. A slow chunk used to hold every chunk finished after it in
// memory until it ended (a run of 1,000 chunks could keep 999 tallies). Chunks now start only
// while they are at most 2 x threads ahead of the first unmerged one, so a run holds at most
// threads + 2 x threads + a few accumulators, however many chunks it has.
TEST_CASE("run_chunks holds a bounded number of accumulators behind a slow chunk", "[runner]") {
    for (unsigned threads : {2u, 4u}) {
        INFO(threads << " threads");
        Counted::most = 0;
        const RunConfig cfg{.playouts = 400, .seed = 1, .threads = threads, .chunk_size = 1};
        const auto r =
            run_chunks(cfg, Counted{}, [](Dice&, std::uint64_t first, std::uint64_t, Counted&) {
                if (first == 0) std::this_thread::sleep_for(std::chrono::milliseconds(300));
            });
        CHECK_FALSE(r.partial);
        CHECK(r.chunks == 400);
        // the empty one and the result; a worker's chunk and its moved copy; the window
        CHECK(Counted::most.load() <= 3 + 4 * static_cast<int>(threads));
    }
}

// A worker's exception (a metric past its range, memory exhausted) ends the run and reaches the
// caller, where the CLI turns it into one line: it used to escape its thread and abort.
TEST_CASE("run_chunks rethrows a worker's exception in the caller", "[runner]") {
    const RunConfig cfg{.playouts = 100, .seed = 1, .threads = 3, .chunk_size = 1};
    CHECK_THROWS_AS(run_chunks(cfg, Counted{},
                               [](Dice&, std::uint64_t first, std::uint64_t, Counted&) {
                                   if (first == 37) throw std::bad_alloc();
                               }),
                    std::bad_alloc);
}

TEST_CASE(
    "compare plays playout j of every policy on Dice(stream_seed(seed, j)), whatever the "
    "threads",
    "[runner][compare][determinism]") {
    const std::vector<std::string> a = {"tau=aggressor", "kaon=dice"};
    const std::vector<std::string> b = {"tau=survivor", "kaon=dice"};
    std::vector<fs::path> dirs;
    for (int threads : {1, 3}) {
        dirs.push_back(temp_dir("compare-threads" + std::to_string(threads)));
        // 3000 playouts: three chunks of 1024 and a short one.
        REQUIRE(cli({"compare", "dimension-duel", "--policy", a[0], "--policy", b[0], "--fixed",
                     a[1], "-n", "3000", "--seed", "13", "--threads", std::to_string(threads),
                     "--no-progress", "--out", dirs.back().string()}) == 0);
    }
    for (const char* file : {"compare.csv", "policies.csv", "tau_aggressor_kaon_dice/summary.csv",
                             "tau_survivor_kaon_dice/summary.csv"}) {
        INFO(file);
        const auto first = test::slurp(dirs[0] / file);
        CHECK(first.size() > 100);
        CHECK(test::slurp(dirs[1] / file) == first);
    }
    // The paired difference on tau_win, from every playout played one by one.
    const auto& game = find_game("dimension-duel");
    const auto pa = game.prepare({}, a), pb = game.prepare({}, b);
    const std::size_t metrics = pa->metrics.size();
    std::size_t m = 0;
    while (pa->metrics[m].name != "tau_win") ++m;
    std::vector<std::int32_t> va(3000 * metrics), vb(3000 * metrics);
    pa->play_each(13, 0, 3000, va.data());
    pb->play_each(13, 0, 3000, vb.data());
    std::int64_t sum_a = 0, sum_d = 0;
    for (std::size_t i = 0; i < 3000; ++i) {
        sum_a += va[i * metrics + m];
        sum_d += va[i * metrics + m] - vb[i * metrics + m];
    }
    std::istringstream csv(test::slurp(dirs[0] / "compare.csv"));
    bool found = false;
    for (std::string line; std::getline(csv, line);) {
        if (line.find(",tau_win,tau=aggressor kaon=dice,tau=survivor kaon=dice,") ==
            std::string::npos)
            continue;
        found = true;
        // ...,mean_a,mean_b,diff,ci_low,ci_high,p_value,p_holm,p_below,status
        std::vector<std::string> cells;
        std::stringstream ss(line);
        for (std::string c; std::getline(ss, c, ',');) cells.push_back(c);
        REQUIRE(cells.size() >= 9);
        INFO(line);
        CHECK(std::stod(cells[cells.size() - 9]) == Approx(static_cast<double>(sum_a) / 3000));
        CHECK(std::stod(cells[cells.size() - 7]) == Approx(static_cast<double>(sum_d) / 3000));
        CHECK(cells.back() == "complete");
    }
    CHECK(found);
    for (const auto& d : dirs) fs::remove_all(d);
}
