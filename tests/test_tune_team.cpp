// odds tune under mpirun (sim/cli/mpi.cpp), its ranks played by threads: every rank runs the same
// search, each evaluation played by all of them together (rank r plays shard r+1 of P, every rank
// gathers every rank's shard and adds them up), so the search under a team prints and writes one
// process's bytes; a failure or a stop on one rank ends every rank, none waiting for another.
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "engine/stop.hpp"
#include "sim/cli/commands.hpp"
#include "sim/interrupt.hpp"
#include "sim/shard_file.hpp"
#include "tests/helpers.hpp"

using namespace odds;
namespace fs = std::filesystem;

namespace {

// The ranks' collective: each blocks until all P have handed theirs, as MPI_Allgather does.
class ThreadTeam {
public:
    // From collective call `stop_at` on (0: the first), the last rank hands what a rank stopped
    // by Ctrl-C hands (a shard marked partial, or the exact solver's "stopped" flag), the others
    // what they played; after call `request_at`, a stop request (Ctrl-C's flag) for every rank.
    // The calls counted are the readiness and the evaluations': a setting's check ('p') and a
    // run's preparation ('r'), each a call of its own, pass uncounted.
    // `stop_kind` ('p' or 'r'): at the first uncounted call of that kind, the last rank hands
    // "stopped" instead (Ctrl-C inside a policy's preparation, which may solve).
    ThreadTeam(int size, std::uint64_t stop_at, std::uint64_t request_at, char stop_kind = 0)
        : size_(size),
          stop_at_(stop_at),
          request_at_(request_at),
          stop_kind_(stop_kind),
          slots_(static_cast<std::size_t>(size)) {}
    sim::Team member(int rank) {
        return {rank, size_, [this, rank](const std::string& mine) { return gather(rank, mine); }};
    }
    std::uint64_t rounds() const { return counted_; }
    // Rounds that handed shards (the others hand one-letter flags), and whether each of those
    // was shard r+1 of P from rank r, the shards tiling the evaluation's chunks.
    std::uint64_t shard_rounds() const { return shard_rounds_; }
    bool shards_tiled() const { return tiled_; }

private:
    std::vector<std::string> gather(int rank, const std::string& mine) {
        std::unique_lock lock(mu_);
        const std::uint64_t round = generation_;
        slots_[static_cast<std::size_t>(rank)] = mine;
        if (++arrived_ == size_) {
            const bool counted = slots_[0] != "p" && slots_[0] != "r";
            if (stop_kind_ && slots_[0] == std::string(1, stop_kind_)) {
                slots_.back() = "s";
                stop_kind_ = 0;
            }
            if (counted && counted_ >= stop_at_) stop_last();
            all_ = slots_;
            if (all_[0].rfind("odds-shard", 0) == 0) check_shards();  // not a flag or an error
            arrived_ = 0;
            if (counted && counted_ == request_at_) g_stop_requested = true;
            counted_ += counted;
            ++generation_;
            cv_.notify_all();
        } else {
            cv_.wait(lock, [&] { return generation_ != round; });
        }
        return all_;
    }
    void stop_last() noexcept try {
        std::string& last = slots_.back();
        if (last == "-") last = "s";
        if (last.rfind("odds-shard", 0) != 0) return;
        sim::Shard shard = sim::read_shard(last, "rank");
        shard.partial = true;
        last = sim::shard_text(shard);
    } catch (...) {}
    void check_shards() noexcept try {
        ++shard_rounds_;
        std::uint64_t next = 0;
        for (int r = 0; r < size_; ++r) {
            const auto s = sim::read_shard(all_[static_cast<std::size_t>(r)], "rank");
            tiled_ = tiled_ && s.index == static_cast<std::uint64_t>(r) + 1 &&
                     s.count == static_cast<std::uint64_t>(size_) && s.first == next &&
                     (!s.partial || r == size_ - 1);
            next = s.last;
        }
        tiled_ = tiled_ && next == sim::read_shard(all_[0], "rank").jobs.at(0).chunks;
    } catch (...) {  // never out of the collective: the other threads would wait for ever
        tiled_ = false;
    }
    int size_;
    std::uint64_t stop_at_, request_at_;
    char stop_kind_;
    std::uint64_t shard_rounds_ = 0;
    bool tiled_ = true;
    std::mutex mu_;
    std::condition_variable cv_;
    std::vector<std::string> slots_, all_;
    int arrived_ = 0;
    std::uint64_t generation_ = 0;
    std::uint64_t counted_ = 0;  // the calls counted
};

struct TeamResult {
    std::vector<test::CliResult> ranks;
    std::uint64_t rounds = 0;        // collective calls each rank made (counted: ThreadTeam)
    std::uint64_t shard_rounds = 0;  // of them, evaluations played together
    bool tiled = true;
};

constexpr std::uint64_t kNever = ~std::uint64_t{0};

// `odds ARGS...` on `size` ranks (threads), each with its own streams; the last one stopped from
// collective call `stop_at` on, every one after call `request_at`.
TeamResult team_cli(int size, std::vector<std::string> args, std::uint64_t stop_at = kNever,
                    std::uint64_t request_at = kNever, char stop_kind = 0) {
    args.insert(args.begin(), "odds");
    std::vector<const char*> argv;
    for (const auto& a : args) argv.push_back(a.c_str());
    ThreadTeam team(size, stop_at, request_at, stop_kind);
    std::vector<sim::Team> members;
    for (int r = 0; r < size; ++r) members.push_back(team.member(r));
    std::vector<std::ostringstream> outs(static_cast<std::size_t>(size)),
        errs(static_cast<std::size_t>(size));
    std::vector<int> codes(static_cast<std::size_t>(size));
    std::vector<std::thread> ranks;
    for (std::size_t r = 0; r < members.size(); ++r)
        ranks.emplace_back([&, r] {
            codes[r] = cli::odds_main_sharing(static_cast<int>(argv.size()), argv.data(), outs[r],
                                              errs[r], nullptr, &members[r]);
        });
    for (auto& t : ranks) t.join();
    TeamResult res;
    for (std::size_t r = 0; r < members.size(); ++r)
        res.ranks.push_back({codes[r], outs[r].str(), errs[r].str()});
    res.rounds = team.rounds();
    res.shard_rounds = team.shard_rounds();
    res.tiled = team.shards_tiled();
    return res;
}

// The evaluations of a tune.csv that were played (a row per target and evaluation; race's fields
// are never quoted): the distinct steps whose method is monte_carlo.
std::uint64_t played_steps(const std::string& csv) {
    std::istringstream in(csv);
    std::set<std::string> steps;
    for (std::string line; std::getline(in, line);) {
        if (line.find(",monte_carlo,") == std::string::npos) continue;
        std::istringstream fields(line);
        std::string f;
        for (int i = 0; i < 5; ++i) std::getline(fields, f, ',');  // game, ..., step
        steps.insert(f);
    }
    return steps.size();
}

// Every file of `dir`, by name.
std::map<std::string, std::string> files_in(const fs::path& dir) {
    std::map<std::string, std::string> files;
    if (fs::exists(dir))
        for (const auto& e : fs::directory_iterator(dir))
            files[e.path().filename().string()] = test::slurp(e.path());
    return files;
}

}  // namespace

TEST_CASE("tune under a team of ranks writes one process's bytes", "[tune][mpi]") {
    const std::vector<std::vector<std::string>> searches{
        // successive halving on playouts toward two targets, then its confirmation
        {"--vary", "goal=14..30:4", "--vary", "max_turns=5..8", "--target", "win=0.5", "--target",
         "turns=6", "-n", "8000", "--no-exact"},
        // NTBEA on playouts, its trials of two chunks (200 playouts, 128 a chunk): two ranks of
        // four play nothing of a trial
        {"--vary", "goal=10..40", "--vary", "max_turns=3..9", "--target", "win=0.4", "--search",
         "ntbea", "--budget", "12", "--deviations", "0", "--trial-playouts", "200", "-n", "4000",
         "--no-exact"},
        // NTBEA on the exact solver's values: nothing played, the solutions agreed on
        {"--vary", "goal=10..40", "--vary", "max_turns=3..9", "--target", "win=0.4", "--search",
         "ntbea", "--budget", "12", "--deviations", "1", "--finalists", "2"},
    };
    const fs::path base =
        fs::temp_directory_path() / ("odds-tune-team-" + std::to_string(::getpid()));
    for (const auto& search : searches) {
        fs::remove_all(base);
        std::vector<std::string> args{"tune", "race", "--no-progress", "--threads", "1"};
        args.insert(args.end(), search.begin(), search.end());
        auto one_args = args;
        one_args.insert(one_args.end(), {"--out", (base / "one").string()});
        const auto one = test::cli(one_args);
        INFO(one.out << one.err);
        REQUIRE(one.code == 0);
        for (const int size : {2, 4}) {
            auto team_args = args;
            const fs::path dir = base / ("team" + std::to_string(size));
            team_args.insert(team_args.end(), {"--out", dir.string()});
            const auto team = team_cli(size, team_args);
            INFO(size << " ranks: " << team.ranks[0].err);
            for (const auto& rank : team.ranks) {
                CHECK(rank.code == 0);
                CHECK(rank.out == one.out);  // every rank ran the same search
            }
            CHECK(team.rounds > 0);
            CHECK(files_in(dir) == files_in(base / "one"));
            // Every evaluation played is played together: one round of shards each (the exact
            // search plays none: its rounds are the solutions' flags).
            const bool exact =
                std::find(search.begin(), search.end(), "--no-exact") == search.end();
            CHECK(team.shard_rounds == played_steps(test::slurp(dir / "tune.csv")));
            CHECK((team.shard_rounds == 0) == exact);
            CHECK(team.tiled);
        }
    }
    fs::remove_all(base);
}

TEST_CASE("tune under a team: a failure on one rank ends every rank", "[tune][mpi]") {
    // Rank 0 alone makes --out: where it cannot, every rank hears of it before playing.
    const fs::path file =
        fs::temp_directory_path() / ("odds-tune-team-file-" + std::to_string(::getpid()));
    { std::ofstream(file) << "x"; }
    const auto team = team_cli(3, {"tune", "race", "--vary", "goal=10..30", "--target", "win max",
                                   "--no-progress", "--out", (file / "sub").string()});
    for (const auto& rank : team.ranks) CHECK(rank.code == 2);
    INFO(team.ranks[0].err);
    CHECK(team.ranks[0].err.find("--out") != std::string::npos);
    CHECK(std::count(team.ranks[0].err.begin(), team.ranks[0].err.end(), '\n') == 1);
    CHECK(team.rounds == 1);
    fs::remove(file);
    // --shard under mpirun: refused, as mpirun shares the work itself.
    const auto shard = team_cli(2, {"tune", "race", "--vary", "goal=10..30", "--target", "win max",
                                    "--no-progress", "--shard", "1/2"});
    CHECK(shard.ranks[0].code == 2);
    CHECK(shard.ranks[0].err.find("under mpirun") != std::string::npos);
}

TEST_CASE("tune under a team stops every rank alike", "[tune][mpi][stop]") {
    // A stop request (Ctrl-C) once the first evaluation is played (collective call 1; call 0 is
    // the ranks' readiness): every rank's share of the second stops before its first chunk, every
    // rank sees a partial shard, and rank 0 writes the first, partial, as the best so far (exit
    // 130).
    const fs::path out =
        fs::temp_directory_path() / ("odds-tune-team-stop-" + std::to_string(::getpid()));
    fs::remove_all(out);
    const auto team =
        team_cli(2,
                 {"tune", "race", "--vary", "goal=10..60", "--target", "win max", "--no-exact",
                  "-n", "100k", "--threads", "1", "--no-progress", "--out", out.string()},
                 kNever, 1);
    InterruptGuard::reset();
    INFO(team.ranks[0].out << team.ranks[0].err);
    for (const auto& rank : team.ranks) CHECK(rank.code == 130);
    CHECK(team.rounds == 3);
    CHECK(team.ranks[0].out.find("best so far:") != std::string::npos);
    const std::string csv = test::slurp(out / "tune.csv");
    CHECK(test::occurrences(csv, ",partial\n") == 1);
    CHECK(test::occurrences(csv, ",true,partial\n") == 1);
    fs::remove_all(out);
}

TEST_CASE("tune under a team: one rank stopped stops every rank after the same calls",
          "[tune][mpi][stop]") {
    // The last rank alone stopped, in the third evaluation (collective call 3; call 0 is the
    // ranks' readiness): inside its share of the playouts, or inside the exact solver. Every rank
    // stops there, its last collective call that one, and rank 0 writes the two evaluations
    // before it, marked partial, with the best so far (exit 130).
    const std::vector<std::string> played{"--vary",     "goal=10..60", "--target", "win max",
                                          "--no-exact", "-n",          "20000"};
    const std::vector<std::string> exact{"--vary",   "goal=10..60", "--vary",   "max_turns=3..9",
                                         "--target", "win=0.4",     "--search", "ntbea"};
    for (const auto& search : {played, exact}) {
        const fs::path out =
            fs::temp_directory_path() / ("odds-tune-team-stop1-" + std::to_string(::getpid()));
        fs::remove_all(out);
        std::vector<std::string> args{"tune",          "race",  "--threads", "1",
                                      "--no-progress", "--out", out.string()};
        args.insert(args.end(), search.begin(), search.end());
        const auto team = team_cli(3, args, 3);
        INFO(team.ranks[0].out << team.ranks[0].err);
        for (const auto& rank : team.ranks) CHECK(rank.code == 130);
        CHECK(team.rounds == 4);
        CHECK(team.ranks[0].out.find("best so far:") != std::string::npos);
        CHECK(team.ranks[0].err.find("interrupted") != std::string::npos);
        const std::string csv = test::slurp(out / "tune.csv");
        CHECK(test::occurrences(csv, ",partial\n") == 2);
        CHECK(test::occurrences(csv, ",true,partial\n") == 1);
        fs::remove_all(out);
    }
}

TEST_CASE("tune under a team: a rank stopped preparing a setting stops every rank alike",
          "[tune][mpi][stop]") {
    // Ctrl-C inside a policy's preparation (best-response solves there, looking at the stop
    // flag) on the last rank alone: while a setting is checked ('p'), or while the run of an
    // evaluation is prepared ('r'). Each is a collective call of its own, so every rank stops
    // there too (exit 130) rather than one leaving the search while the others wait.
    for (const char kind : {'p', 'r'}) {
        const fs::path out =
            fs::temp_directory_path() / ("odds-tune-team-prep-" + std::to_string(::getpid()));
        fs::remove_all(out);
        const auto team =
            team_cli(3,
                     {"tune", "race", "--vary", "goal=10..20", "--target", "win max", "--no-exact",
                      "-n", "2000", "--threads", "1", "--no-progress", "--out", out.string()},
                     kNever, kNever, kind);
        INFO(kind << ": " << team.ranks[0].out << team.ranks[0].err);
        for (const auto& rank : team.ranks) CHECK(rank.code == 130);
        CHECK(team.ranks[0].err.find("interrupted") != std::string::npos);
        CHECK(team.shard_rounds == 0);  // stopped before any evaluation was played
        fs::remove_all(out);
    }
}
