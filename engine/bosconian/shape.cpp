#include "engine/bosconian/shape.hpp"

#include <optional>

#include "engine/dice.hpp"
#include "engine/stop.hpp"

namespace odds::bosconian::shape {

Tracer::Tracer(const Options& o) : o_(o), values_(o) {
    prior_ = exact::bosconian::solve(o).win.mass[1];
}

void Tracer::trace(std::uint64_t seed, std::uint64_t i, std::vector<double>& p) const {
    throw_if_stop_requested();
    p.clear();
    p.push_back(prior_);
    Dice dice(stream_seed(seed, i));
    std::optional<exact::bosconian::WinTable> table;  // the layout's, at its first sector
    const auto observe = [&](int pos, std::uint64_t bases, int damage, int alert) {
        if (!table) table = values_.table(bases, pos);
        p.push_back(table->at(pos, damage, alert));
    };
    const Outcome out = o_.tables.odd ? play_mission<true>(o_, dice, observe)
                                      : play_mission<false>(o_, dice, observe);
    p.push_back(out.won ? 1.0 : 0.0);
}

}  // namespace odds::bosconian::shape
