#include "engine/msc/ships.hpp"

#include <cctype>
#include <utility>

namespace odds::msc {

std::optional<Design> parse_design(std::string_view text) {
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
    if (i != text.size() || !d.legal()) return std::nullopt;
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

Design doctrine_design(Doctrine doctrine, int bp) {
    // Each doctrine fixes some ratings and fills the rest with weapons; an odd BP left over goes
    // to TO-HIT, else ENGINE, else SHIELDS, so every design costs exactly `bp`.
    Design d;
    auto fill = [&](Design x) {
        int left = bp - x.cost();
        while (left >= 2 && x.weapons < 20) {
            x.weapons += 1;
            left -= 2;
        }
        if (left > 0 && x.to_hit < kMaxRating) {
            x.to_hit += 1;
            --left;
        }
        if (left > 0 && x.engine < kMaxRating) {
            x.engine += 1;
            --left;
        }
        if (left > 0 && x.shields < kMaxRating) {
            x.shields += 1;
            --left;
        }
        return x;
    };
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
            d = fill({5, bp / 5 - 1, bp / 5 - 1, 0});
            break;
    }
    return d;
}

std::optional<Doctrine> parse_doctrine(std::string_view name) {
    if (name == "balanced") return Doctrine::balanced;
    if (name == "glass-cannon") return Doctrine::glass_cannon;
    if (name == "turtle") return Doctrine::turtle;
    if (name == "fast") return Doctrine::fast;
    return std::nullopt;
}

}  // namespace odds::msc
