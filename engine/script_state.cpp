#include "engine/script_state.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <utility>
#include <vector>

#include "engine/script_bytes.hpp"

namespace odds::script {

namespace {

using namespace bytes;

void write_value(lua_State* L, int index, std::string& out, int depth, const std::string& at);

void write_table(lua_State* L, int index, std::string& out, int depth, const std::string& at) {
    if (depth > kMaxStateDepth)
        throw std::runtime_error("the state nests tables deeper than " +
                                 std::to_string(kMaxStateDepth) + " at " + at);
    index = index < 0 ? lua_gettop(L) + index + 1 : index;
    std::vector<std::pair<std::string, std::string>> entries;
    std::size_t total = 0;
    lua_pushnil(L);
    while (lua_next(L, index) != 0) {
        std::string key, value;
        const int k = lua_gettop(L) - 1;
        const std::string name =
            lua_type(L, k) == LUA_TSTRING ? at + "." + lua_tostring(L, k) : at + "[...]";
        write_value(L, k, key, depth + 1, name);
        write_value(L, -1, value, depth + 1, name);
        lua_pop(L, 1);
        // Counted as it grows: one table held under many keys is written out each time.
        total += key.size() + value.size();
        entries.emplace_back(std::move(key), std::move(value));
        if (total > kMaxStateBytes)
            throw std::runtime_error("the state takes more than " + std::to_string(kMaxStateBytes) +
                                     " bytes at " + at);
    }
    std::sort(entries.begin(), entries.end());
    put_table(out, entries.size());
    for (const auto& [k, v] : entries) out += k + v;
}

void write_value(lua_State* L, int index, std::string& out, int depth, const std::string& at) {
    switch (lua_type(L, index)) {
        case LUA_TNUMBER: {
            const double x = lua_tonumber(L, index);
            if (std::isnan(x)) throw std::runtime_error("the state holds NaN at " + at);
            put_number(out, x);
            break;
        }
        case LUA_TBOOLEAN:
            out += lua_toboolean(L, index) ? 't' : 'f';
            break;
        case LUA_TSTRING: {
            std::size_t n = 0;
            const char* s = lua_tolstring(L, index, &n);
            put_string(out, std::string_view(s, n));
            break;
        }
        case LUA_TTABLE:
            write_table(L, index, out, depth, at);
            break;
        default:
            throw std::runtime_error("the state holds a " + std::string(luaL_typename(L, index)) +
                                     " at " + at +
                                     ": a state is numbers, booleans, strings and tables of them");
    }
    if (out.size() > kMaxStateBytes)
        throw std::runtime_error("the state takes more than " + std::to_string(kMaxStateBytes) +
                                 " bytes");
}

struct Parser {
    lua_State* L;
    std::string_view b;
    std::size_t at = 0;
    std::uint32_t size() { return size_at(b, at); }
    void value() {
        switch (b[at++]) {
            case 'n':
                lua_pushnumber(L, number_at(b, at));
                break;
            case 't':
                lua_pushboolean(L, 1);
                break;
            case 'f':
                lua_pushboolean(L, 0);
                break;
            case 's': {
                const std::uint32_t n = size();
                lua_pushlstring(L, b.data() + at, n);
                at += n;
                break;
            }
            default: {  // '{'
                const std::uint32_t n = size();
                lua_createtable(L, 0, static_cast<int>(n));
                for (std::uint32_t i = 0; i < n; ++i) {
                    value();
                    value();
                    lua_rawset(L, -3);
                }
            }
        }
    }
};

}  // namespace

std::string write_state(lua_State* L, int index) {
    std::string out;
    write_table(L, index, out, 0, "s");
    return out;
}

void read_state(lua_State* L, std::string_view bytes) {
    luaL_checkstack(L, 2 * kMaxStateDepth + 8, "a state read back");
    Parser p{L, bytes};
    p.value();
}

}  // namespace odds::script
