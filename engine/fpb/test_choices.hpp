// Full Plastic Bodybag tests' view of a choice: what it does, with the parts the kernel ignores
// (H4, H5) stripped, so a policy's choice can be found among Game::legal's.
#pragma once

#include <string>

#include "engine/fpb/fpb.hpp"

namespace odds::fpb::choices {

// The effect of choice `c` at `s` (at a decision point), as a string.
inline std::string effect(const State& s, const Game::Choice& c) {
    std::string k;
    if (s.phase == State::kLeader) {
        const Order& o = c.order;
        const auto named = [&](int i, bool firing) {
            const Marine& x = s.m[i];
            return i != kLt && ((o.who >> i) & 1) && x.fit() && s.in_reach(x.area) &&
                   x.firing == firing;
        };
        switch (o.kind) {
            case Order::kSmoke:
                if (s.in_reach(o.area)) k = "smoke" + std::to_string(o.area);
                break;
            case Order::kCover:
            case Order::kHalt:
                for (int i = 0; i < kSquad; ++i)
                    if (named(i, o.kind == Order::kHalt)) k += std::to_string(i);
                if (!k.empty()) k = (o.kind == Order::kCover ? "cover" : "halt") + k;
                break;
            case Order::kMove:
                for (int i = 0; i < kSquad; ++i) {
                    const Marine& x = s.m[i];
                    const int to = x.area + o.step[i];
                    if (((o.who >> i) & 1) && x.fit() && s.in_reach(x.area) && o.step[i] != 0 &&
                        to >= 1 && to <= 3)
                        k += std::to_string(i) + (o.step[i] < 0 ? "-" : "+");
                }
                if (!k.empty()) k = "move" + k;
                break;
            default:
                break;
        }
        return k.empty() ? "none" : k;
    }
    if (s.phase == State::kCarry) {
        for (int c2 = 0; c2 < kSquad; ++c2) {
            const int w = c.carry[c2];
            if (w >= 0 && can_carry(s, c2, w)) {
                k += static_cast<char>('0' + c2);
                k += '>';
                k += static_cast<char>('0' + w);
            }
        }
        return k.insert(0, "carry");
    }
    if (!c.bug_out) return "stay";
    const auto w = wounded_in_cover(s);
    const int first = c.first_out;
    // H5a's order takes Ice-cube first, else the lower roster number.
    const int h5a = w[0] < 0 ? -1 : (w[1] == kIceCube ? w[1] : w[0]);
    return (first >= 0 && first != h5a && (first == w[0] || first == w[1]))
               ? "go" + std::to_string(first)
               : "go";
}

}  // namespace odds::fpb::choices
