// Dice: the random source of every kernel.
//
// - Xoshiro256pp: the xoshiro256++ generator (Blackman and Vigna), 256 bits of state.
// - stream_seed(seed, chunk): the 64-bit seed of chunk `chunk` of a run, derived by hashing, so a
//   chunk's dice depend only on (seed, chunk) and never on the thread that plays it.
// - Dice: unbiased d6 rolls, batched. Each 64-bit word is cut into eight bytes; a byte below 216
//   (= 6^3) is read as three base-6 digits, a byte of 216..255 is thrown away. Every accepted byte
//   is uniform on 0..215, so its three digits are three independent fair dice. No modulo bias,
//   no division, no branch per die but the refill.
// - ScriptedDice: replays given faces, for rule tests that pin a ruling to an exact sequence.
//
// Kernels take the dice as a template parameter and call only `d6()`, so the compiler sees
// through it in the hot loop. Everything here is fixed-size: no heap allocation.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <vector>

namespace odds {

// SplitMix64 (Steele, Lea, Flood): a strong 64-bit mixer, used to seed and to derive streams.
constexpr std::uint64_t splitmix64(std::uint64_t& x) noexcept {
    std::uint64_t z = (x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

// The seed of chunk `chunk` of a run seeded with `seed`: both words pass through the mixer, so
// neighbouring seeds and neighbouring chunks give unrelated streams.
constexpr std::uint64_t stream_seed(std::uint64_t seed, std::uint64_t chunk) noexcept {
    std::uint64_t a = seed;
    const std::uint64_t hs = splitmix64(a);
    std::uint64_t b = hs ^ (chunk * 0xD1B54A32D192ED03ull);
    splitmix64(b);
    return splitmix64(b);
}

class Xoshiro256pp {
public:
    using result_type = std::uint64_t;

    explicit constexpr Xoshiro256pp(std::uint64_t seed) noexcept {
        std::uint64_t x = seed;
        for (auto& w : s_) w = splitmix64(x);  // never all zero: splitmix64 is a bijection
    }

    // A generator in exactly this state (not all zero), for known-answer tests.
    static constexpr Xoshiro256pp from_state(const std::array<std::uint64_t, 4>& s) noexcept {
        Xoshiro256pp g(0);
        g.s_ = s;
        return g;
    }

    static constexpr result_type min() noexcept { return 0; }
    static constexpr result_type max() noexcept { return ~result_type{0}; }

    constexpr result_type operator()() noexcept {
        const std::uint64_t result = rotl(s_[0] + s_[3], 23) + s_[0];
        const std::uint64_t t = s_[1] << 17;
        s_[2] ^= s_[0];
        s_[3] ^= s_[1];
        s_[1] ^= s_[2];
        s_[0] ^= s_[3];
        s_[2] ^= t;
        s_[3] = rotl(s_[3], 45);
        return result;
    }

private:
    static constexpr std::uint64_t rotl(std::uint64_t x, int k) noexcept {
        return (x << k) | (x >> (64 - k));
    }
    std::array<std::uint64_t, 4> s_{};
};

namespace detail {
// kTriples[b] packs the three base-6 digits of b (b < 216) as faces 1..6, one per byte, and in
// the top byte how far an accepted byte advances the buffer: 3 (b < 216) or 0 (rejected), so the
// refill adds it without a branch.
struct TripleTable {
    std::array<std::uint32_t, 256> packed{};
    constexpr TripleTable() {
        for (std::uint32_t b = 0; b < 216; ++b)
            packed[b] = (b % 6 + 1) | ((b / 6 % 6 + 1) << 8) | ((b / 36 + 1) << 16) | (3u << 24);
    }
};
inline constexpr TripleTable kTriples{};
}  // namespace detail

// Fair d6 rolls from xoshiro256++, refilled in batches into a fixed buffer.
class Dice {
public:
    explicit Dice(std::uint64_t seed) noexcept : rng_(seed) {}

    // One fair die, 1..6.
    int d6() noexcept {
        if (pos_ == end_) refill();
        return faces_[pos_++];
    }

    // The sum of n dice, rolled in order (the same faces as n calls of d6()).
    int sum_d6(int n) noexcept {
        int s = 0;
        if (end_ - pos_ >= static_cast<std::uint32_t>(n)) {  // fast path: all in the buffer
            for (int i = 0; i < n; ++i) s += faces_[pos_ + static_cast<std::uint32_t>(i)];
            pos_ += static_cast<std::uint32_t>(n);
            return s;
        }
        for (int i = 0; i < n; ++i) s += d6();
        return s;
    }

    Xoshiro256pp& generator() noexcept { return rng_; }
    // A raw 64-bit word from the same stream (to seed a policy's own playouts, say).
    std::uint64_t word() noexcept { return rng_(); }

private:
    static constexpr int kWords = 16;                 // words per refill
    static constexpr int kCapacity = kWords * 8 * 3;  // at most 3 faces per byte

    void refill() noexcept {
        std::uint32_t n = 0;
        for (int w = 0; w < kWords; ++w) {
            std::uint64_t x = rng_();
            for (int k = 0; k < 8; ++k) {
                const std::uint32_t b = static_cast<std::uint32_t>(x & 0xFF);
                x >>= 8;
                // Store the three faces unconditionally (one 4-byte store: its fourth byte is
                // overwritten by the next store or lies past the end); advance by the table's
                // top byte, 3 for an accepted byte and 0 for a rejected one, with no branch.
                const std::uint32_t t = detail::kTriples.packed[b];
                std::memcpy(&faces_[n], &t, 4);
                n += t >> 24;
            }
        }
        pos_ = 0;
        end_ = n;
        if (end_ == 0) refill();  // 128 rejected bytes in a row: probability 2^-340
    }

    Xoshiro256pp rng_;
    std::uint32_t pos_ = 0;
    std::uint32_t end_ = 0;
    std::array<std::uint8_t, kCapacity + 1> faces_{};  // +1: the 4-byte stores
};

// A fair whole number in 0 .. n-1 (n >= 1) from the dice's raw words: Lemire's multiply-shift
// with rejection, so no value is favoured (shuffles, a random policy's uniform choices).
template <class D>
std::uint32_t below(D& dice, std::uint32_t n) {
    std::uint64_t m = static_cast<std::uint64_t>(static_cast<std::uint32_t>(dice.word())) * n;
    if (static_cast<std::uint32_t>(m) < n) {
        const std::uint32_t threshold = static_cast<std::uint32_t>(-n) % n;
        while (static_cast<std::uint32_t>(m) < threshold)
            m = static_cast<std::uint64_t>(static_cast<std::uint32_t>(dice.word())) * n;
    }
    return static_cast<std::uint32_t>(m >> 32);
}

// Replays the given faces in order. Running out, or a face outside 1..6, is a test error.
class ScriptedDice {
public:
    ScriptedDice(std::initializer_list<int> faces) : faces_(faces) { check(); }
    explicit ScriptedDice(std::vector<int> faces) : faces_(std::move(faces)) { check(); }

    int d6() {
        if (next_ >= faces_.size())
            throw std::logic_error("scripted dice ran out after " + std::to_string(next_) +
                                   " rolls");
        return faces_[next_++];
    }
    int sum_d6(int n) {
        int s = 0;
        for (int i = 0; i < n; ++i) s += d6();
        return s;
    }

    // Raw words (shuffles) replay those given to script_words, in order; none left is a test
    // error.
    std::uint64_t word() {
        if (next_word_ >= words_.size())
            throw std::logic_error("scripted dice have no raw words left");
        return words_[next_word_++];
    }
    void script_words(std::vector<std::uint64_t> words) {
        words_ = std::move(words);
        next_word_ = 0;
    }

    std::size_t used() const noexcept { return next_; }
    std::size_t remaining() const noexcept { return faces_.size() - next_; }

private:
    void check() const {
        for (int f : faces_)
            if (f < 1 || f > 6) throw std::logic_error("scripted face out of 1..6");
    }
    std::vector<int> faces_;
    std::size_t next_ = 0;
    std::vector<std::uint64_t> words_;
    std::size_t next_word_ = 0;
};

}  // namespace odds
