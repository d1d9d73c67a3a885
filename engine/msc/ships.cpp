#include "engine/msc/ships.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <tuple>
#include <utility>

namespace odds::msc {

std::optional<Design> parse_design(std::string_view text, const ShipRules& r) {
    Design d;
    int* fields[4] = {&d.engine, &d.shields, &d.to_hit, &d.weapons};
    const char letters[4] = {'E', 'S', 'T', 'W'};
    std::size_t i = 0;
    for (int k = 0; k < 4; ++k) {
        if (i >= text.size() || text[i] != letters[k])  // capitals: values are case-sensitive
            return std::nullopt;
        ++i;
        if (i >= text.size() || !std::isdigit(static_cast<unsigned char>(text[i])))
            return std::nullopt;
        int v = 0;
        while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])) && v < 100)
            v = v * 10 + (text[i++] - '0');
        *fields[k] = v;
    }
    if (i != text.size() || !d.legal(r)) return std::nullopt;
    return d;
}

std::string to_string(const Design& d) {
    std::string s;
    for (auto [letter, value] : {std::pair{'E', d.engine}, std::pair{'S', d.shields},
                                 std::pair{'T', d.to_hit}, std::pair{'W', d.weapons}}) {
        s += letter;
        s += std::to_string(value);
    }
    return s;
}

std::optional<Design> doctrine_design(Doctrine doctrine, int bp, const ShipRules& r) {
    // Each doctrine fixes some ratings and fills the rest with weapons; BPs left over go to
    // TO-HIT, else ENGINE, else SHIELDS, so every design costs exactly `bp` (under the book's
    // costs always; an odd BP is one point of TO-HIT).
    const auto fill = [&](Design x) {
        x.engine = std::min(x.engine, r.max_engine);
        x.shields = std::min(x.shields, r.max_shields);
        x.to_hit = std::min(x.to_hit, r.max_to_hit);
        int left = bp - x.cost(r);
        while (left >= r.weapon_bp && x.weapons < 63) {  // (a design code's limit)
            x.weapons += 1;
            left -= r.weapon_bp;
        }
        for (auto [rating, max, unit] : {std::tuple{&x.to_hit, r.max_to_hit, r.to_hit_bp},
                                         std::tuple{&x.engine, r.max_engine, r.engine_bp},
                                         std::tuple{&x.shields, r.max_shields, r.shields_bp}})
            while (left >= unit && *rating < max) {
                *rating += 1;
                left -= unit;
            }
        return x;
    };
    Design d;
    switch (doctrine) {
        case Doctrine::balanced:
            d = fill({3, bp / 5, bp / 5, 0});
            break;
        case Doctrine::glass_cannon:
            d = fill({2, 0, 5, 0});
            break;
        case Doctrine::turtle:
            d = fill({2, 5, 0, 0});
            break;
        case Doctrine::fast:
            d = fill({5, std::max(0, bp / 5 - 1), std::max(0, bp / 5 - 1), 0});
            break;
    }
    if (d.cost(r) == bp && d.legal(r)) return d;
    // Other costs: the legal design of `bp` nearest the fill (the least sum of the ratings'
    // differences; ties: the first in the order of for_each_design).
    std::optional<Design> best;
    int best_far = 0;
    for_each_design(r, [&](const Design& x, int cost) {
        if (cost != bp) return true;
        const int far = std::abs(x.engine - d.engine) + std::abs(x.shields - d.shields) +
                        std::abs(x.to_hit - d.to_hit) + std::abs(x.weapons - d.weapons);
        if (!best || far < best_far) {
            best = x;
            best_far = far;
        }
        return true;
    });
    return best;
}

Design doctrine_design(Doctrine doctrine, int bp) { return *doctrine_design(doctrine, bp, {}); }

std::optional<Doctrine> parse_doctrine(std::string_view name) {
    if (name == "balanced") return Doctrine::balanced;
    if (name == "glass-cannon") return Doctrine::glass_cannon;
    if (name == "turtle") return Doctrine::turtle;
    if (name == "fast") return Doctrine::fast;
    return std::nullopt;
}

}  // namespace odds::msc
