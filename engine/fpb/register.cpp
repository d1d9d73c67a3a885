// Full Plastic Bodybag: Heroes in the registry: the kernel's traits, from which entry_of builds
// the entry.
#include "engine/fpb/fpb.hpp"
#include "engine/fpb/policies.hpp"
#include "sim/register_game.hpp"

namespace odds {

namespace {

struct Fpb {
    static constexpr std::string_view name = "fpb";
    using Options = fpb::Options;
    using State = fpb::State;
    static constexpr auto parse_options = fpb::parse_options;
    static constexpr auto& policies = fpb::kPolicies;
    static constexpr auto& policy_infos = fpb::kPolicyInfos;
    static constexpr auto scenario = fpb::scenario;
    static constexpr auto metric_specs = fpb::metric_specs;
    static constexpr auto survival_specs = fpb::survival_specs;
    static constexpr auto read_position = fpb::read_position;
    static constexpr auto write_position = fpb::write_position;
    static State opening(const Options& o) { return State::start(o); }
    template <class D, class P>
    static void play(State s, const Options& o, D& dice, std::int32_t* metrics, P& policy) {
        fpb::play_from(s, o, policy, dice);
        fpb::to_metrics(s, metrics);
    }
    // rollout plays thousands of games a decision: small chunks keep Ctrl-C and progress prompt.
    static std::uint32_t chunk_size(const fpb::Policy& p) {
        return std::holds_alternative<fpb::Rollout>(p) ? 64 : registration::kChunkSize;
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

}  // namespace

GameEntry fpb_entry() {
    return entry_of<Fpb>({.title = "Full Plastic Bodybag: Heroes",
                          .summary = "solo: a raw lieutenant's squad must bring its wounded "
                                     "pointman back under a sniper's gun",
                          .options = fpb::option_infos(),
                          .rules_version = "fpb/4",
                          .headline = kHeadline});
}

}  // namespace odds
