// What the CLI shows of a policy: its name (as given to --policy) and one line of help.
#pragma once

#include <string_view>

namespace odds {

struct PolicyInfo {
    std::string_view name;
    std::string_view help;
};

}  // namespace odds
