// Binds a game's kernel to the runner. `Game` provides:
//   Options, Policy (a std::variant of policy types),
//   template <class P, class D> static void play(const Options&, P&, D&, std::int32_t* metrics).
// The policy variant is visited once per run, so each policy gets its own compiled hot loop.
#pragma once

#include <variant>

#include "engine/dice.hpp"
#include "sim/registry.hpp"

namespace odds {

template <class Game>
class GameRun final : public PreparedRun {
public:
    GameRun(typename Game::Options options, typename Game::Policy chosen)
        : options_(std::move(options)), policy_(std::move(chosen)) {}

    RunResult run(const RunConfig& cfg, const RunControl& ctl) const override {
        const Tally empty(metrics, survival);
        return std::visit(
            [&](const auto& prototype) {
                const auto play_chunk = [&](Dice& dice, std::uint64_t n, Tally& tally) {
                    auto seat = prototype;  // a fresh copy per chunk: chunks share nothing
                    std::int32_t values[kMaxMetrics];
                    for (std::uint64_t i = 0; i < n; ++i) {
                        Game::play(options_, seat, dice, values);
                        tally.add(values);
                    }
                };
                return run_chunks(cfg, empty, play_chunk, ctl);
            },
            policy_);
    }

private:
    typename Game::Options options_;
    typename Game::Policy policy_;
};

}  // namespace odds
