// Full Plastic Bodybag: Heroes: solo, positions, several survival tables (withdrawn, killed...).
#include "engine/fpb/fpb.hpp"
#include "engine/fpb/policies.hpp"
#include "sim/register_game.hpp"

namespace odds {
namespace {

struct Fpb {
    static constexpr std::string_view name = "fpb";
    static constexpr auto parse_options = fpb::parse_options;
    static constexpr auto option_table = fpb::option_table;
    static constexpr auto& policies = fpb::kPolicies;
    static constexpr auto survival_specs = fpb::survival_specs;
    // rollout plays thousands of games a decision.
    static std::uint32_t chunk_size(const fpb::Policy& p) {
        return any_is<fpb::Rollout>(p) ? 64 : kChunkSize;
    }
    // odds shape: the odds that Ice-cube is brought out (icecube_rescued, H8), estimated at the
    // start of every turn (H3) by rollouts of the policy from there.
    static void shape(ShapeReport& rep, const fpb::Options& o, const std::array<fpb::Policy, 1>& p,
                      const odds::shape::Config& cfg, odds::shape::Sampler& games) {
        const auto start = [&](Dice&) {
            fpb::State s = fpb::opening(o);
            fpb::Game::begin(s);
            return s;
        };
        const auto turn = [](const fpb::State& s) { return s.turn; };
        const auto rescued = [](const fpb::State& s) {
            return fpb::outcome_of(s).icecube_rescued ? 1.0 : 0.0;
        };
        rep.notes.push_back("success: Ice-cube brought out (icecube_rescued, H8)");
        odds::shape::rollout_report<fpb::Game>(rep, cfg, games, "fpb", o, p, start, turn, rescued);
    }
    static constexpr std::string_view headline[] = {"withdrawn",
                                                    "wounded_withdrawn",
                                                    "left_behind",
                                                    "killed",
                                                    "icecube_rescued",
                                                    "turns",
                                                    "clean",
                                                    "costly",
                                                    "lost"};
    static constexpr std::string_view ladder[] = {"random",          "bug-out",
                                                  "cover-and-carry", "smoke-and-carry",
                                                  "bravest-first",   "lead-from-front"};
};

}  // namespace

GameEntry fpb_entry() {
    return entry_of<Fpb>({.title = "Full Plastic Bodybag: Heroes",
                          .summary = "solo: a raw lieutenant's squad must bring its wounded "
                                     "pointman back under a sniper's gun",
                          .rules_version = "fpb/4",
                          .search = "mcts:{n}:rollout=lead-from-front"});
}

}  // namespace odds
