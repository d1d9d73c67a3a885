// The parallel runner. A run of N playouts is cut into fixed-size chunks; chunk k plays with dice
// seeded by stream_seed(seed, k), so its playouts depend only on (seed, k). Worker threads pull
// chunk indices from one counter; each chunk fills its own exact Tally (or any accumulator that
// merges), and finished chunks merge in index order. A stop request (Ctrl-C) is honoured at a
// chunk boundary, or inside a chunk where a long loop of a playout (search, flat Monte Carlo)
// sees it and throws StopRequested (engine/stop.hpp): that chunk is dropped, the playouts it had
// finished with it. The result is then the merge of the chunks 0..K-1 that finished, exactly
// what a complete run of K chunks adds up, which again depends only on the seed.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

#include "engine/dice.hpp"
#include "engine/metric.hpp"
#include "engine/stop.hpp"
#include "reports/tally.hpp"

namespace odds {

// The playouts of a chunk, the unit a seed's dice are drawn by (chunk k rolls stream_seed(seed, k))
// and threads take: part of what a seed means, so one size for every game and command unless a
// game's registration says otherwise for an expensive policy (then its rules version says so).
// 256: a 1,000-game run is four chunks, two threads busy.
inline constexpr std::uint32_t kChunkSize = 256;

// Threads joined on the way out, as std::jthreads are (libc++ 14, the web build's, has none).
struct JoinedThreads {
    std::vector<std::thread> threads;
    JoinedThreads() = default;
    JoinedThreads(const JoinedThreads&) = delete;
    JoinedThreads& operator=(const JoinedThreads&) = delete;
    ~JoinedThreads() {
        for (auto& t : threads)
            if (t.joinable()) t.join();
    }
};

struct RunConfig {
    std::uint64_t playouts = 0;
    std::uint64_t seed = 1;
    unsigned threads = 1;
    std::uint32_t chunk_size = kChunkSize;  // the game's own: PreparedRun::chunk_size
    // The chunks this process plays, [chunk_begin, chunk_end) clipped to the run's: all of them
    // by default; one shard's share of them under --shard or MPI (sim/executor.hpp).
    std::uint64_t chunk_begin = 0;
    std::uint64_t chunk_end = ~std::uint64_t{0};
};

// What the caller sees while a run goes on, and how it asks the run to stop.
struct RunControl {
    const std::atomic<bool>* stop = nullptr;  // set: stop; a chunk under way is dropped (partial)
    std::function<void(std::uint64_t done)> progress;  // called from the waiting thread
};

// What a run adds up: the merge of its chunks (all of them unless it was stopped).
template <class Acc>
struct ChunkedResult {
    Acc tally;
    bool partial = false;      // stopped before every chunk was played
    std::uint64_t chunks = 0;  // chunks merged: chunk_begin .. chunk_begin + chunks - 1
    double seconds = 0;
};
using RunResult = ChunkedResult<Tally>;

// Finished chunks merged into `into` in chunk order, whichever thread finishes them: a chunk
// finished early waits in `pending` for its predecessors. A chunk is started only while it is
// fewer than `window` chunks ahead of the first one not yet merged, so a slow chunk holds at most
// `window` finished ones waiting behind it: memory stays (workers + window + 1) accumulators,
// whatever the number of chunks (docs/commands.md).
template <class Acc>
class InOrderMerge {
public:
    InOrderMerge(Acc& into, std::uint64_t first, std::uint64_t window)
        : into_(into), merged_(first), window_(window) {}
    // Blocks until chunk k may start (or `stopping()`); the chunk `merged` is being played, so
    // this ends.
    template <class Stopping>
    void wait_for_room(std::uint64_t k, const Stopping& stopping) {
        std::unique_lock lock(mu);
        while (k >= merged_ + window_ && !stopping())
            room_.wait_for(lock, std::chrono::milliseconds(50));
    }
    void add(std::uint64_t k, Acc&& t) {
        std::lock_guard lock(mu);
        pending_.emplace(k, std::move(t));
        while (!pending_.empty() && pending_.begin()->first == merged_) {
            into_.merge(pending_.begin()->second);
            pending_.erase(pending_.begin());
            ++merged_;
        }
        room_.notify_all();
    }
    void wake_all() { room_.notify_all(); }           // under `mu`
    std::uint64_t merged() const { return merged_; }  // chunks first..merged-1 are in `into`
    std::mutex mu;

private:
    Acc& into_;
    std::uint64_t merged_, window_;
    std::condition_variable room_;
    std::map<std::uint64_t, Acc> pending_;  // finished chunks waiting for their predecessors
};

// Plays one chunk: `play_chunk(dice, first, count, acc)` must play the run's playouts first ..
// first+count-1 (first = k * chunk_size for chunk k) with `dice` and add each to `acc`, a copy of
// `empty`. A caller that seeds each playout by its index instead, Dice(stream_seed(seed, first +
// i)), leaves `dice` alone (odds compare: the same dice for every policy, playout by playout).
// It is called concurrently from several threads, each call on its own dice and accumulator,
// and must not share mutable state between calls. Acc: a Tally, or any copyable type with
// merge(const Acc&). It may throw StopRequested to abandon the chunk.
template <class Acc, class PlayChunk>
ChunkedResult<Acc> run_chunks(const RunConfig& cfg, const Acc& empty, const PlayChunk& play_chunk,
                              const RunControl& ctl = {}) {
    const auto start = std::chrono::steady_clock::now();
    const std::uint64_t all = (cfg.playouts + cfg.chunk_size - 1) / cfg.chunk_size;
    const std::uint64_t chunks = std::min(all, cfg.chunk_end);  // chunk_begin .. chunks - 1
    const std::uint64_t begin = std::min(cfg.chunk_begin, chunks);
    const auto chunk_len = [&](std::uint64_t k) {
        return std::min<std::uint64_t>(cfg.chunk_size, cfg.playouts - k * cfg.chunk_size);
    };

    ChunkedResult<Acc> result{empty, false, 0, 0};
    // Workers at most: one a chunk, never more than asked.
    const unsigned n = static_cast<unsigned>(
        std::max<std::uint64_t>(1, std::min<std::uint64_t>(cfg.threads, chunks - begin)));
    InOrderMerge<Acc> merge(result.tally, begin, 2 * std::uint64_t{n});
    std::atomic<std::uint64_t> next{begin};
    std::atomic<bool> failed{false};
    std::exception_ptr error;  // the first exception a worker threw, rethrown here
    std::atomic<std::uint64_t> done_playouts{0};
    std::atomic<unsigned> workers_left{0};
    std::condition_variable all_done;

    const auto stopping = [&] {
        return failed.load(std::memory_order_relaxed) ||
               (ctl.stop && ctl.stop->load(std::memory_order_relaxed));
    };
    // One worker plays on the calling thread (no thread started: a web build's instance, one
    // web worker, has none) and reports progress itself between chunks, every 100 ms at most.
    auto last_report = start;
    const auto report_inline = [&] {
        if (n != 1 || !ctl.progress) return;
        const auto now = std::chrono::steady_clock::now();
        if (now - last_report < std::chrono::milliseconds(100)) return;
        last_report = now;
        ctl.progress(done_playouts.load(std::memory_order_relaxed));
    };
    auto worker = [&] {
        try {
            for (;;) {
                if (stopping()) break;
                const std::uint64_t k = next.fetch_add(1, std::memory_order_relaxed);
                if (k >= chunks) break;
                merge.wait_for_room(k, stopping);
                if (stopping()) break;
                Acc t = empty;
                Dice dice(stream_seed(cfg.seed, k));
                try {
                    play_chunk(dice, k * cfg.chunk_size, chunk_len(k), t);
                } catch (const StopRequested&) {
                    break;  // stopped inside the chunk: dropped, never merged (the run is partial)
                }
                done_playouts.fetch_add(chunk_len(k), std::memory_order_relaxed);
                merge.add(k, std::move(t));
                report_inline();
            }
        } catch (...) {  // out of memory, a metric past its range...: the run ends, rethrown
            std::lock_guard lock(merge.mu);
            if (!error) error = std::current_exception();
            failed = true;
            merge.wake_all();
        }
        std::lock_guard lock(merge.mu);  // under the lock: the waiting thread cannot miss it
        if (workers_left.fetch_sub(1, std::memory_order_release) == 1) all_done.notify_all();
    };

    workers_left = n;
    if (n == 1) {
        worker();
    } else {
        JoinedThreads pool;
        pool.threads.reserve(n);
        for (unsigned i = 0; i < n; ++i) pool.threads.emplace_back(worker);
        if (ctl.progress) {  // report every 100 ms until the last worker is done
            std::unique_lock lock(merge.mu);
            while (!all_done.wait_for(lock, std::chrono::milliseconds(100), [&] {
                return workers_left.load(std::memory_order_acquire) == 0;
            })) {
                lock.unlock();
                ctl.progress(done_playouts.load(std::memory_order_relaxed));
                lock.lock();
            }
        }
    }  // joins
    if (error) std::rethrow_exception(error);
    if (ctl.progress) ctl.progress(done_playouts.load());
    result.partial = merge.merged() < chunks;
    result.chunks = merge.merged() - begin;
    result.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result;
}

}  // namespace odds
