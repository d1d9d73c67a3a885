// A variant against the book in one benchmark (docs/performance.md, "Variants"): batches of the
// book's games and of the variant's are played in turn on the same thread, each timed on the
// thread's CPU clock, so what a shared machine does to one does the same to the other. The item
// is one of the variant's games; the counters:
//   ratio        the variant's games a second over the book's (1 = the book's speed)
//   length       the variant's mean game length, in the unit its game names (sectors, turns...)
//   book_length  the book's, in the same unit: a ratio reads fairly only beside the two lengths
//   per_length   the ratio per unit of length (a sector, a turn of the variant against one of
//                the book's): ratio * length / book_length
#pragma once

#include <benchmark/benchmark.h>

#include <cstdint>
#include <ctime>
#include <initializer_list>
#include <string>

#include "engine/rule_options.hpp"

namespace odds::bench {

inline double thread_seconds() {  // this thread's CPU time: what other programs do is not counted
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// book() and variant() each play one game and return its length.
template <class Book, class Variant>
void versus_book(benchmark::State& state, Book book, Variant variant) {
    constexpr int kBatch = 2048;
    double t_book = 0, t_variant = 0;
    std::int64_t len_book = 0, len_variant = 0;
    for (auto _ : state) {
        state.PauseTiming();
        double t0 = thread_seconds();
        for (int i = 0; i < kBatch; ++i) len_book += book();
        double t1 = thread_seconds();
        t_book += t1 - t0;
        state.ResumeTiming();
        t0 = thread_seconds();
        for (int i = 0; i < kBatch; ++i) len_variant += variant();
        t1 = thread_seconds();
        t_variant += t1 - t0;
    }
    const double games = static_cast<double>(state.iterations()) * kBatch;
    state.SetItemsProcessed(state.iterations() * kBatch);
    state.counters["ratio"] = t_book / t_variant;
    state.counters["length"] = static_cast<double>(len_variant) / games;
    state.counters["book_length"] = static_cast<double>(len_book) / games;
    state.counters["per_length"] =
        t_book / t_variant * static_cast<double>(len_variant) / static_cast<double>(len_book);
}

// Registers `family`/NAME=VALUE for each "NAME=VALUE" given, each calling run(state, {{NAME,
// VALUE}}); returns 0 (for a static's initializer).
template <class Run>
int register_variants(const char* family, std::initializer_list<const char*> variants, Run run) {
    for (const char* v : variants) {
        const std::string text = v;
        const auto eq = text.find('=');
        const Settings settings{{text.substr(0, eq), text.substr(eq + 1)}};
        benchmark::RegisterBenchmark((std::string(family) + "/" + text).c_str(),
                                     [settings, run](benchmark::State& st) { run(st, settings); })
            ->Unit(benchmark::kMicrosecond);
    }
    return 0;
}

}  // namespace odds::bench
