// Joining words for messages, tables and scripts: one helper for every room (engine, policies,
// sim, reports), for any range of strings or string views.
#pragma once

#include <string>
#include <string_view>

namespace odds {

// The items one after another, `separator` between two: joined(seats, ", ") is "tau, kaon".
template <class Range>
std::string joined(const Range& items, std::string_view separator = " ") {
    std::string out;
    bool first = true;
    for (const auto& item : items) {
        if (!first) out += separator;
        out += std::string_view(item);
        first = false;
    }
    return out;
}

}  // namespace odds
