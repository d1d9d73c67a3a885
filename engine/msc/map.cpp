#include "engine/msc/map.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "engine/line_reader.hpp"
#include "engine/msc/example_map_data.hpp"
#include "engine/rule_options.hpp"

namespace odds::msc {

StarMap parse_map(std::string_view text, std::string_view origin) {
    StarMap m;
    int homes = 0, row = 0, first_row_line = 0;
    LineReader in(text, origin, LineReader::Comments::first_word);
    while (in.next()) {
        const std::string_view line = in.text();
        const int line_no = in.line();
        const auto bad = [&](const std::string& why) {
            return LineReader::error_at(origin, line_no, why);
        };
        if (m.width == 0) {
            m.width = static_cast<int>(line.size());
            first_row_line = line_no;
            if (m.width > kMaxMapSide)
                throw bad("a row of " + std::to_string(m.width) + " hexes; at most " +
                          std::to_string(kMaxMapSide));
        }
        if (static_cast<int>(line.size()) != m.width)
            throw bad("a row of " + std::to_string(line.size()) + " hexes; the first (line " +
                      std::to_string(first_row_line) + ") has " + std::to_string(m.width));
        if (row == kMaxMapSide)
            throw bad("more than " + std::to_string(kMaxMapSide) + " rows of hexes");
        for (int col = 0; col < m.width; ++col) {
            const char c = line[col];
            const hex::Hex h = hex::from_offset(col, row);
            if (c == '*') {
                if (m.systems.size() + 2 >= static_cast<std::size_t>(kMaxSystems))
                    throw bad("more than " + std::to_string(kMaxSystems) +
                              " systems, the homes included");
                m.systems.push_back(h);
            } else if (c == 'H') {
                if (homes == 2)
                    throw bad("a third home system (column " + std::to_string(col) + ")");
                m.home[homes++] = h;
            } else if (c != '.') {
                const bool printable = c > ' ' && c < 127;
                throw bad("column " + std::to_string(col) + ": " +
                          (printable ? "'" + std::string(1, c) + "'"
                                     : "character code " +
                                           std::to_string(static_cast<unsigned char>(c))) +
                          " is not '.' (space), '*' (a system) or 'H' (a home)");
            }
        }
        ++row;
    }
    m.height = row;
    if (m.width == 0) in.fail("no rows of hexes");
    if (homes != 2) in.fail(std::to_string(homes) + " home systems ('H'); a map has 2");
    if (m.systems.empty()) in.fail("no star systems ('*') besides the homes");
    return m;
}

std::shared_ptr<const StarMap> read_map_file(const std::string& path) {
    return std::make_shared<const StarMap>(parse_map(read_input_file(path, "map file"), path));
}

const StarMap& example_map() {
    static const StarMap m = parse_map(kExampleMapText, "the built-in example map");
    return m;
}

}  // namespace odds::msc
