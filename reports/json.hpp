// JSON text for tools (`odds list --json`): strings escaped per RFC 8259, numbers as the
// shortest text that reads back as the same double.
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

#include "reports/csv.hpp"

namespace odds {

// `s` as a JSON string, quoted: '"' and '\' escaped, control characters as \n, \t... or \u00XX;
// every other byte (UTF-8 included) as it is.
inline std::string json_string(std::string_view s) {
    std::string out = "\"";
    for (const char c : s) {
        switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            case '\r': out += "\\r"; break;
            case '\t': out += "\\t"; break;
            case '\b': out += "\\b"; break;
            case '\f': out += "\\f"; break;
            default:
                if (static_cast<unsigned char>(c) < 0x20) {
                    char buf[8];
                    std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
                    out += buf;
                } else {
                    out += c;
                }
        }
    }
    return out + '"';
}

// A finite number; JSON has no NaN or infinity: null.
inline std::string json_number(double v) {
    return v == v && v - v == 0 ? format_double(v) : std::string("null");
}

}  // namespace odds
