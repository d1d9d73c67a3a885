// Binds a game's kernel to the runner. `Game` provides:
//   Options; Seats, a std::tuple with one std::variant of policy types per seat;
//   template <class... P> static void play(const Options&, Dice&, std::int32_t* metrics, P&...).
// The seats' variants are visited once per run, so each combination of policies gets its own
// compiled hot loop.
#pragma once

#include <algorithm>
#include <tuple>
#include <variant>

#include "engine/dice.hpp"
#include "engine/stop.hpp"
#include "sim/registry.hpp"

namespace odds {

template <class Game>
class GameRun final : public PreparedRun {
public:
    GameRun(typename Game::Options options, typename Game::Seats chosen)
        : options_(std::move(options)), seats_(std::move(chosen)) {}

    RunResult run(const RunConfig& cfg, const RunControl& ctl) const override {
        const Tally empty(metrics, survivals);
        const auto body = [&](const auto&... prototypes) {
            const auto play_chunk = [&](Dice& dice, std::uint64_t, std::uint64_t n, Tally& tally) {
                // Fresh copies per chunk: chunks share no policy state.
                auto seats = std::tuple{prototypes...};
                std::int32_t values[kMaxMetrics];
                for (std::uint64_t i = 0; i < n; ++i) {
                    // A stop drops the chunk (sim/runner.hpp) within one playout, not a chunk:
                    // 256 threads each deep in a chunk of slow playouts took a minute.
                    if (ctl.stop && ctl.stop->load(std::memory_order_relaxed)) [[unlikely]]
                        throw StopRequested{};
                    std::apply([&](auto&... p) { Game::play(options_, dice, values, p...); },
                               seats);
                    tally.add(values);
                }
            };
            return run_chunks(cfg, empty, play_chunk, ctl);
        };
        return std::apply([&](const auto&... v) { return std::visit(body, v...); }, seats_);
    }

    void play_each(std::uint64_t seed, std::uint64_t first, std::uint64_t n,
                   std::int32_t* out) const override {
        const std::size_t stride = metrics.size();
        std::apply(
            [&](const auto&... v) {
                std::visit(
                    [&](const auto&... prototypes) {
                        auto seats = std::tuple{prototypes...};
                        std::int32_t values[kMaxMetrics];
                        for (std::uint64_t i = 0; i < n; ++i) {
                            throw_if_stop_requested();
                            Dice dice(stream_seed(seed, first + i));
                            std::apply(
                                [&](auto&... p) { Game::play(options_, dice, values, p...); },
                                seats);
                            std::copy(values, values + stride, out + i * stride);
                        }
                    },
                    v...);
            },
            seats_);
    }

private:
    typename Game::Options options_;
    typename Game::Seats seats_;
};

}  // namespace odds
