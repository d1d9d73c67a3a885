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
// Kernels take the dice as a template parameter and call `d6()` and `sum_d6()`, so the compiler
// sees through them in the hot loop; a kernel may also look ahead, `peek(n)`, at the next n faces
// (n <= kMaxPeek) and then `skip(k)` the k it used, to resolve a roll whose dice count depends on
// its own faces without a branch per die. Looking ahead rolls nothing: the faces are the same,
// in the same order, however they are read. Everything here is fixed-size: no heap allocation.
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

// The most faces a kernel may look ahead at once (Dice::peek, ScriptedDice::peek).
inline constexpr int kMaxPeek = 48;

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

    // The next n faces (n <= kMaxPeek), not yet rolled: peek(n)[0] is what d6() returns next.
    // The faces left in the buffer move to its front and the next batch is appended: no face is
    // skipped or reordered, so the faces are those d6() would have given.
    const std::uint8_t* peek(int n) noexcept {
        if (end_ - pos_ < static_cast<std::uint32_t>(n)) top_up(static_cast<std::uint32_t>(n));
        return &faces_[pos_];
    }
    // Rolls the first k faces of the last peek (k <= n): the next d6() is peek(n)[k].
    void skip(int k) noexcept { pos_ += static_cast<std::uint32_t>(k); }

    Xoshiro256pp& generator() noexcept { return rng_; }
    // A raw 64-bit word from the same stream (to seed a policy's own playouts, say).
    std::uint64_t word() noexcept { return rng_(); }

private:
    static constexpr int kWords = 16;                 // words per refill
    static constexpr int kCapacity = kWords * 8 * 3;  // at most 3 faces per byte

    [[gnu::noinline]] void refill() noexcept {
        pos_ = 0;
        end_ = 0;
        append();
        if (end_ == 0) refill();  // 128 rejected bytes in a row: probability 2^-340
    }

    [[gnu::noinline]] void top_up(std::uint32_t need) noexcept {
        const std::uint32_t left = end_ - pos_;
        std::memmove(&faces_[0], &faces_[pos_], left);
        pos_ = 0;
        end_ = left;
        while (end_ < need) append();
    }

    // One batch of faces after the end_ faces already in the buffer.
    void append() noexcept {
        std::uint32_t n = end_;
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
        end_ = n;
    }

    Xoshiro256pp rng_;
    std::uint32_t pos_ = 0;
    std::uint32_t end_ = 0;
    // kMaxPeek - 1: faces kept by top_up; +1: the 4-byte stores.
    std::array<std::uint8_t, kMaxPeek - 1 + kCapacity + 1> faces_{};
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

// Replays the given faces in order. Running out, or a face the die rolled cannot show (a 7 on a
// d6), is a test error.
class ScriptedDice {
public:
    ScriptedDice(std::initializer_list<int> faces) : faces_(faces) { check(); }
    explicit ScriptedDice(std::vector<int> faces) : faces_(std::move(faces)) { check(); }

    int d6() { return roll(6); }
    // One die of `sides` faces (roll_die, engine/rule_values.hpp): the next face, which must be
    // one of its faces.
    int roll(int sides) {
        if (next_ >= faces_.size())
            throw std::logic_error("scripted dice ran out after " + std::to_string(next_) +
                                   " rolls");
        if (faces_[next_] > sides)
            throw std::logic_error("scripted face " + std::to_string(faces_[next_]) +
                                   " rolled on a d" + std::to_string(sides));
        return faces_[next_++];
    }
    int sum_d6(int n) {
        int s = 0;
        for (int i = 0; i < n; ++i) s += d6();
        return s;
    }

    // The next n faces; past the script's end they read 1 (any face: a kernel that rolls one of
    // them by skip() fails as d6() would, having run out).
    const std::uint8_t* peek(int n) {
        if (n > kMaxPeek) throw std::logic_error("peek beyond kMaxPeek");
        for (int i = 0; i < n; ++i) {
            const std::size_t k = next_ + static_cast<std::size_t>(i);
            window_[i] = static_cast<std::uint8_t>(k < faces_.size() ? faces_[k] : 1);
        }
        return window_.data();
    }
    void skip(int k) {
        if (next_ + static_cast<std::size_t>(k) > faces_.size())
            throw std::logic_error("scripted dice ran out after " + std::to_string(faces_.size()) +
                                   " rolls");
        next_ += static_cast<std::size_t>(k);
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
            if (f < 1 || f > 100) throw std::logic_error("scripted face out of 1..100");
    }
    std::vector<int> faces_;
    std::size_t next_ = 0;
    std::array<std::uint8_t, kMaxPeek> window_{};
    std::vector<std::uint64_t> words_;
    std::size_t next_word_ = 0;
};

}  // namespace odds
