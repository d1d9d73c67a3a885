#include "sim/cli/mpi.hpp"

#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <iostream>
#include <string>
#include <vector>

#include "engine/rule_options.hpp"
#include "engine/stop.hpp"
#include "sim/cli/cli.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/spec.hpp"
#include "sim/executor.hpp"
#include "sim/interrupt.hpp"
#include "sim/progress.hpp"

namespace odds {

namespace {

// Every rank's shard text, gathered on rank 0 (empty elsewhere). One gather carries at most 2 GiB
// in all (MPI's int counts): every rank learns every size first, so past it every rank refuses
// alike (a UsageError on rank 0, none waiting for a gather that never comes).
std::vector<std::string> gather(const std::string& mine, int rank, int size) {
    const long long mine_size = static_cast<long long>(mine.size());
    std::vector<long long> sizes64(static_cast<std::size_t>(size));
    MPI_Allgather(&mine_size, 1, MPI_LONG_LONG, sizes64.data(), 1, MPI_LONG_LONG, MPI_COMM_WORLD);
    long long sum = 0;
    for (const auto s : sizes64) sum += s;
    if (sum > INT_MAX)
        throw UsageError("the ranks' shards come to " + std::to_string(sum >> 20) +
                         " MiB, more than one MPI gather carries (2 GiB): play fewer games a "
                         "run, or shard it into files (--shard I/N, odds merge)");
    const int n = static_cast<int>(mine.size());
    std::vector<int> sizes(static_cast<std::size_t>(size)), at(static_cast<std::size_t>(size));
    for (int r = 0; r < size; ++r)
        sizes[static_cast<std::size_t>(r)] = static_cast<int>(sizes64[static_cast<std::size_t>(r)]);
    std::string all;
    if (rank == 0) {
        int total = 0;
        for (int r = 0; r < size; ++r) {
            at[static_cast<std::size_t>(r)] = total;
            total += sizes[static_cast<std::size_t>(r)];
        }
        all.resize(static_cast<std::size_t>(total));
    }
    MPI_Gatherv(mine.data(), n, MPI_CHAR, all.data(), sizes.data(), at.data(), MPI_CHAR, 0,
                MPI_COMM_WORLD);
    std::vector<std::string> out;
    if (rank == 0)
        for (int r = 0; r < size; ++r)
            out.push_back(all.substr(static_cast<std::size_t>(at[static_cast<std::size_t>(r)]),
                                     static_cast<std::size_t>(sizes[static_cast<std::size_t>(r)])));
    return out;
}

// Every rank's `mine`, on every rank, in rank order: odds tune's Team::all_gather.
std::vector<std::string> all_gather(const std::string& mine, int size) {
    const int n = static_cast<int>(mine.size());
    std::vector<int> sizes(static_cast<std::size_t>(size)), at(static_cast<std::size_t>(size));
    MPI_Allgather(&n, 1, MPI_INT, sizes.data(), 1, MPI_INT, MPI_COMM_WORLD);
    int total = 0;
    for (int r = 0; r < size; ++r) {
        at[static_cast<std::size_t>(r)] = total;
        total += sizes[static_cast<std::size_t>(r)];
    }
    std::string all(static_cast<std::size_t>(total), '\0');
    MPI_Allgatherv(mine.data(), n, MPI_CHAR, all.data(), sizes.data(), at.data(), MPI_CHAR,
                   MPI_COMM_WORLD);
    std::vector<std::string> out;
    for (int r = 0; r < size; ++r)
        out.push_back(all.substr(static_cast<std::size_t>(at[static_cast<std::size_t>(r)]),
                                 static_cast<std::size_t>(sizes[static_cast<std::size_t>(r)])));
    return out;
}

// odds tune: every rank runs the same search, and each evaluation's playouts are played by all
// of them, rank r shard r+1 of P, then summed on every rank (sim/tune_search.cpp); rank 0 alone
// speaks and writes.
int team_out(int argc, char** argv, int rank, int size) {
    const cli::Team team{rank, size,
                         [size](const std::string& mine) { return all_gather(mine, size); }};
    std::ostream silent(nullptr);
    return cli::odds_main_sharing(argc, argv, rank == 0 ? std::cout : silent,
                                  rank == 0 ? std::cerr : silent, nullptr, &team);
}

int shared_out(int argc, char** argv, int rank, int size) {
    std::vector<std::string> args(argv, argv + argc);
    const bool quiet = std::find(args.begin(), args.end(), "--no-progress") != args.end();
    if (!quiet) args.push_back("--no-progress");  // the commands' own bars: the share draws its own
    std::vector<const char*> av;
    for (const auto& a : args) av.push_back(a.c_str());

    cli::Executor share = cli::Executor::shard(static_cast<std::uint64_t>(rank) + 1,
                                               static_cast<std::uint64_t>(size), true);
    share.show_progress(rank == 0 && !quiet && ProgressBar::stderr_is_terminal(), true);
    std::ostream silent(nullptr);  // ranks other than 0 say nothing: rank 0 speaks for the run
    std::ostream& out = rank == 0 ? std::cout : silent;
    std::ostream& err = rank == 0 ? std::cerr : silent;
    const int rc = cli::odds_main_sharing(static_cast<int>(av.size()), av.data(), out, err, &share);

    // Every rank has the same arguments, so bad input fails on each alike (rank 0 said why);
    // any other failure on any rank ends the run.
    const bool stopped = rc == 130 || rc == 143;  // SIGINT, SIGTERM
    const int failed_here = rc != 0 && !stopped ? 1 : 0;
    int failed = 0, interrupted = 0;
    const int stopped_here = stopped ? 1 : 0;
    MPI_Allreduce(&failed_here, &failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    MPI_Allreduce(&stopped_here, &interrupted, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (failed) {
        if (rank == 0 && !failed_here) std::cerr << "odds: another MPI rank failed\n";
        return failed_here ? rc : 1;
    }
    // --help, or nothing to share: rank 0 said it all.
    const bool played = !share.result().command.empty();
    const std::string text = played ? cli::shard_text(share.result()) : std::string();
    std::vector<std::string> texts;
    try {
        texts = gather(text, rank, size);
    } catch (const UsageError& e) {  // every rank alike
        if (rank == 0) std::cerr << "odds: " << e.what() << '\n';
        return 2;
    }
    if (rank != 0 || !played) return rc;
    try {
        std::vector<cli::Shard> shards;
        for (int r = 0; r < size; ++r)
            shards.push_back(cli::read_shard(texts[static_cast<std::size_t>(r)],
                                             "MPI rank " + std::to_string(r)));
        // Interrupted (Ctrl-C): each rank stopped at a chunk boundary; the files say partial.
        // The stop is the ranks' and is done with: the merge of what they played goes on, and
        // a new signal may stop the merge itself (odds shape's looks at the flag).
        const int stopped_by = InterruptGuard::exit_code();  // 143 after SIGTERM
        InterruptGuard::reset();
        const int merged =
            cli::run_merged(std::move(shards), share.out(), std::cout, std::cerr, interrupted != 0);
        return merged == 130 ? stopped_by : merged;
    } catch (const StopRequested&) {  // a signal while merging: nothing written (run_merged)
        std::cerr << "odds: interrupted while merging the ranks' shards; nothing written\n";
        return InterruptGuard::exit_code();
    } catch (const std::exception& e) {
        std::cerr << "odds: merging the ranks' shards: " << e.what() << '\n';
        return 1;
    }
}

}  // namespace

int odds_mpi_main(int argc, char** argv) {
    int provided = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    int rank = 0, size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const std::string command = argc > 1 ? argv[1] : "";
    const bool help = std::any_of(argv + 1, argv + argc, [](const char* a) {
        return std::string_view(a) == "--help" || std::string_view(a) == "-h";
    });
    // The commands that take --shard share their work among the ranks (sim/cli/spec.hpp).
    const bool shared = size > 1 && !help && cli::shares_out(command);
    int rc = 0;
    if (size > 1 && !help && command == "tune")
        rc = team_out(argc, argv, rank, size);
    else if (shared)
        rc = shared_out(argc, argv, rank, size);
    else if (rank == 0)  // one process's work: rank 0 does it, the others wait
        rc = odds_main(argc, argv, std::cout, std::cerr);
    rc = with_stdout_flushed(rc);
    MPI_Finalize();
    return rank == 0 ? rc : (rc == 130 ? 130 : 0);
}

}  // namespace odds
