// A straightforward hand-written Bosconian-D mission (B1-B9 with the default options: 36
// sectors, 2d6 bases, hull 100, six cannons), all in this one file: what one would write without
// the kernel's care, to measure the kernel against (the BM_BosconianNaive benchmarks of bench.cpp
// beside it). It rolls the same dice in the same order as the kernel, so on the same dice it plays
// the same missions (a test checks it), and the comparison is of the code alone.
#pragma once

namespace odds::naive {

struct Mission {
    bool won = false;
    int damage = 0;
    int sectors_entered = 0;
    int bases_placed = 0;
    int bases_destroyed = 0;
    int encounters = 0;
    int alerts = 0;
};

// d6: any callable returning a fair die, 1..6.
template <class Roll>
Mission play_mission(Roll& d6) {
    const int sectors = 36, hull = 100, cannons_per_base = 6;
    Mission m;
    int damage = 0, alert = 0;

    // The layout (B2): from the last base count d6 sectors on; an occupied sector is rolled
    // again; all six ahead occupied: the first free sector after them, without a roll.
    bool base[sectors + 1] = {};
    const int count = d6() + d6();
    int last = 1;
    for (int b = 0; b < count; ++b) {
        bool room = false;
        for (int k = 1; k <= 6; ++k)
            if (!base[(last - 1 + k) % sectors + 1]) room = true;
        int target;
        if (room) {
            do {
                target = (last - 1 + d6()) % sectors + 1;
            } while (base[target]);
        } else {
            int k = 7;
            while (base[(last - 1 + k) % sectors + 1]) k++;
            target = (last - 1 + k) % sectors + 1;
        }
        base[target] = true;
        last = target;
    }
    m.bases_placed = count;
    int bases_left = count;

    // One missile or threat: destroyed on the listed faces, else dice d6 of damage.
    auto single = [&](int f1, int f2, int f3, int f4, int dice) {
        const int roll = d6();
        if (roll == f1 || roll == f2 || roll == f3 || roll == f4) return true;
        for (int i = 0; i < dice; i++) damage += d6();
        return false;
    };
    auto i_missile = [&] { return single(1, 3, 4, 6, 2); };
    auto p_missile = [&] { return single(1, 2, 5, 6, 3); };

    auto encounter = [&] {
        m.encounters++;
        switch (d6()) {
            case 1:
                i_missile();
                break;
            case 2:
                single(2, 3, 4, 5, 4);
                break;  // cosmo-mine
            case 3:
                p_missile();
                break;
            case 4:
                single(2, 4, 6, 0, 1);
                break;  // asteroid
            case 5: {   // formation attack (B7)
                const bool i_type = d6() <= 3;
                int leader_number = d6();
                while (leader_number == 6) leader_number = d6();
                bool leader = true;
                int others = 4;
                while (leader || others > 0) {
                    bool at_leader;
                    if (leader && others > 0)
                        at_leader = d6() == leader_number;
                    else
                        at_leader = leader;
                    const bool destroyed = i_type ? i_missile() : p_missile();
                    if (damage >= hull) break;
                    if (at_leader) {
                        if (destroyed) break;
                        leader = false;
                    } else {
                        others--;
                    }
                }
                break;
            }
            case 6: {  // spy ship
                const int roll = d6();
                if (roll != 3 && roll != 4) {
                    alert += d6();
                    m.alerts++;
                }
                break;
            }
        }
    };

    // The lap (B1): sectors 2, 3, ..., 36, then 1.
    for (int i = 0; i < sectors && bases_left > 0; i++) {
        const int sector = i == sectors - 1 ? 1 : i + 2;
        m.sectors_entered++;
        const bool alerted = alert > 0;
        if (alerted) alert--;
        if (base[sector]) {  // base combat (B8)
            int cannons = cannons_per_base;
            while (cannons > 0 && damage < hull) {
                if (d6() % 2 == 1) {
                    cannons--;
                } else if (d6() % 2 == 1) {
                    single(3, 4, 0, 0, 4);  // E-type missile
                } else {
                    int shots = 0, evaded = 0;
                    for (int c = 0; c < cannons; c++) shots += d6();
                    for (int c = 0; c < cannons; c++) evaded += d6();
                    if (shots > evaded) damage += shots - evaded;
                }
            }
            if (cannons == 0) {
                base[sector] = false;
                bases_left--;
                m.bases_destroyed++;
            }
        } else {
            encounter();
            if (alerted && damage < hull) encounter();
        }
        if (damage >= hull) break;
    }
    m.won = bases_left == 0 && damage < hull;
    m.damage = damage < hull ? damage : hull;
    return m;
}

}  // namespace odds::naive
