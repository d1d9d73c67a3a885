#include "engine/position.hpp"

#include <charconv>

namespace odds {

PositionReader::PositionReader(std::string_view text, std::string_view file)
    : text_(text), file_(file) {}

bool PositionReader::next() {
    words_.clear();
    while (!done_ && words_.empty()) {
        if (pos_ >= text_.size()) {
            done_ = true;
            break;
        }
        const auto end = text_.find('\n', pos_);
        std::string_view row = text_.substr(pos_, end == std::string_view::npos ? end : end - pos_);
        pos_ = end == std::string_view::npos ? text_.size() : end + 1;
        ++line_;
        if (const auto hash = row.find('#'); hash != std::string_view::npos)
            row = row.substr(0, hash);
        std::size_t i = 0;
        while (i < row.size()) {
            while (i < row.size() && (row[i] == ' ' || row[i] == '\t' || row[i] == '\r')) ++i;
            const std::size_t start = i;
            while (i < row.size() && row[i] != ' ' && row[i] != '\t' && row[i] != '\r') ++i;
            if (i > start) words_.push_back(row.substr(start, i - start));
        }
    }
    return !words_.empty();
}

std::string_view PositionReader::word(std::size_t i) const {
    if (i >= words_.size())
        fail("'" + std::string(words_.empty() ? std::string_view() : words_[0]) +
             "' needs at least " + std::to_string(i + 1) + " words");
    return words_[i];
}

std::int64_t PositionReader::integer(std::size_t i, std::int64_t lo, std::int64_t hi,
                                     std::string_view what, std::string_view rule) const {
    const std::string_view w = word(i);
    std::int64_t v = 0;
    const auto [end, ec] = std::from_chars(w.data(), w.data() + w.size(), v);
    if (ec != std::errc() || end != w.data() + w.size() || v < lo || v > hi)
        fail(std::string(what) + " '" + std::string(w) + "' is not a whole number in " +
             std::to_string(lo) + ".." + std::to_string(hi) +
             (rule.empty() ? std::string() : " (" + std::string(rule) + ")"));
    return v;
}

void PositionReader::expect_words(std::size_t n, std::string_view usage) const {
    if (words_.size() != n)
        fail("expected " + std::to_string(n) + " words, got " + std::to_string(words_.size()) +
             ": " + std::string(usage));
}

void PositionReader::once(int& first, std::string_view record) const {
    if (first)
        fail("a second '" + std::string(record) + "' line (the first is line " +
             std::to_string(first) + ")");
    first = line_;
}

void PositionReader::fail(std::string_view what) const {
    if (line_ == 0 || (done_ && words_.empty())) throw UsageError(file_ + ": " + std::string(what));
    fail_at(line_, what);
}

void PositionReader::fail_at(int line, std::string_view what) const {
    throw UsageError(file_ + ":" + std::to_string(line) + ": " + std::string(what));
}

}  // namespace odds
