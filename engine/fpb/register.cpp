// Full Plastic Bodybag: Heroes in the registry: the kernel's traits, from which entry_of builds
// the entry.
#include "engine/fpb/fpb.hpp"
#include "engine/fpb/policies.hpp"
#include "sim/register_game.hpp"
#include "sim/shape_run.hpp"

namespace odds {

namespace {

struct Fpb {
    static constexpr std::string_view name = "fpb";
    static constexpr auto parse_options = fpb::parse_options;
    static constexpr auto& policies = fpb::kPolicies;
    static constexpr auto survival_specs = fpb::survival_specs;
    static fpb::State opening(const fpb::Options& o) { return fpb::State::start(o); }
    // rollout plays thousands of games a decision: small chunks keep Ctrl-C and progress prompt.
    static std::uint32_t chunk_size(const fpb::Policy& p) {
        return std::holds_alternative<fpb::Rollout>(p) ? 64 : registration::kChunkSize;
    }
    // The shape of a mission turn by turn (odds shape): the odds that Ice-cube is brought out
    // (icecube_rescued, H8), estimated at the start of every turn (H3) by rollouts of the
    // policy from there.
    static void shape(ShapeReport& rep, const fpb::Options& o, const std::array<fpb::Policy, 1>& p,
                      const shape::Config& cfg) {
        using G = fpb::Game;
        const auto start = [&](Dice&) {
            fpb::State s = fpb::State::start(o);
            G::begin(s);
            return s;
        };
        const auto turn = [](const fpb::State& s) { return s.turn; };
        const auto rescued = [](const fpb::State& s) {
            return fpb::outcome_of(s).icecube_rescued ? 1.0 : 0.0;
        };
        shape::Tally empty;
        empty.solo = true;
        shape::refuse_exact(cfg, "fpb", "no solver");
        empty.rollouts = cfg.rollouts;
        rep.estimator = shape::rollout_estimator(cfg);
        rep.notes.push_back("success: Ice-cube brought out (icecube_rescued, H8)");
        auto r = shape::run_traces(cfg, empty, [&](std::uint64_t i, std::vector<double>& out) {
            std::visit(
                [&](const auto& a) {
                    shape::rollout_trace<G>(o, start, a, a, cfg, i, turn, rescued, out);
                },
                p[0]);
        });
        rep.tally = std::move(r.tally);
        rep.partial = r.partial;
    }
};

constexpr std::string_view kHeadline[] = {"withdrawn",
                                          "wounded_withdrawn",
                                          "left_behind",
                                          "killed",
                                          "icecube_rescued",
                                          "turns",
                                          "clean",
                                          "costly",
                                          "lost"};
// odds skill's ladder, weakest first (docs/skill.md).
constexpr std::string_view kLadder[] = {"random",          "bug-out",       "cover-and-carry",
                                        "smoke-and-carry", "bravest-first", "lead-from-front"};

}  // namespace

GameEntry fpb_entry() {
    return entry_of<Fpb>({.title = "Full Plastic Bodybag: Heroes",
                          .summary = "solo: a raw lieutenant's squad must bring its wounded "
                                     "pointman back under a sniper's gun",
                          .options = fpb::option_infos(),
                          .rules_version = "fpb/4",
                          .headline = kHeadline,
                          .ladder = kLadder,
                          .search = "mcts:{n}:rollout=lead-from-front"});
}

}  // namespace odds
