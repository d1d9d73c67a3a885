#include "engine/msc/map.hpp"

#include "engine/msc/example_map_data.hpp"
#include "engine/rule_options.hpp"

namespace odds::msc {

StarMap parse_map(std::string_view text) {
    StarMap m;
    int homes = 0, line_no = 0, row = 0;
    auto bad = [&](const std::string& why) {
        return UsageError("map line " + std::to_string(line_no) + ": " + why);
    };
    while (!text.empty()) {
        const auto nl = text.find('\n');
        std::string_view line = text.substr(0, nl);
        text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
        ++line_no;
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        if (line.empty() || line.front() == '#') continue;
        if (m.width == 0) m.width = static_cast<int>(line.size());
        if (static_cast<int>(line.size()) != m.width)
            throw bad("a row of " + std::to_string(line.size()) + " hexes; the first has " +
                      std::to_string(m.width));
        for (int col = 0; col < m.width; ++col) {
            const char c = line[static_cast<std::size_t>(col)];
            const hex::Hex h = hex::from_offset(col, row);
            if (c == '*') {
                m.systems.push_back(h);
            } else if (c == 'H') {
                if (homes == 2) throw bad("a third home system");
                m.home[static_cast<std::size_t>(homes++)] = h;
            } else if (c != '.') {
                throw bad(std::string("'") + c + "' is not '.', '*' or 'H'");
            }
        }
        ++row;
    }
    m.height = row;
    if (m.width == 0) throw UsageError("the map is empty");
    if (homes != 2) throw UsageError("the map has " + std::to_string(homes) + " home systems, not 2");
    if (m.systems.size() + 2 > static_cast<std::size_t>(kMaxSystems))
        throw UsageError("the map has more than " + std::to_string(kMaxSystems) + " systems");
    return m;
}

std::string_view example_map_text() { return kExampleMapText; }

const StarMap& example_map() {
    static const StarMap m = parse_map(kExampleMapText);
    return m;
}

}  // namespace odds::msc
