// The encoding of a scripted game's state as bytes, in one place: written by write_state and
// read back by read_state (engine/script_state.hpp), and turned into a position's text and back
// (engine/script_position.hpp). Each value is a tag and its bytes: 'n' a number (its 8 bytes),
// 't' / 'f' a boolean, 's' a string (4 bytes of length, then its bytes), '{' a table (4 bytes
// of count, then each key and value, the keys' bytes in order).
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace odds::script::bytes {

inline void put_size(std::string& out, std::size_t n) {
    const auto v = static_cast<std::uint32_t>(n);
    out.append(reinterpret_cast<const char*>(&v), sizeof v);
}
inline void put_number(std::string& out, double x) {
    if (x == 0) x = 0;  // -0 and 0 are one value
    out += 'n';
    out.append(reinterpret_cast<const char*>(&x), sizeof x);
}
inline void put_string(std::string& out, std::string_view s) {
    out += 's';
    put_size(out, s.size());
    out.append(s);
}
// A table's head: its tag and the count of its keys (each key and value follow).
inline void put_table(std::string& out, std::size_t keys) {
    out += '{';
    put_size(out, keys);
}

// Read at `at`, moving it past what was read.
inline std::uint32_t size_at(std::string_view b, std::size_t& at) {
    std::uint32_t v;
    std::memcpy(&v, b.data() + at, sizeof v);
    at += sizeof v;
    return v;
}
inline double number_at(std::string_view b, std::size_t& at) {
    double x;
    std::memcpy(&x, b.data() + at, sizeof x);
    at += sizeof x;
    return x;
}

}  // namespace odds::script::bytes
