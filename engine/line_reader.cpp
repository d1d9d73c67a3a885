#include "engine/line_reader.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>

namespace odds {

std::string byte_size(std::uint64_t bytes) {
    const auto one = [](std::uint64_t b, std::uint64_t unit, const char* name) {
        const std::uint64_t tenths = (b / unit) * 10 + ((b % unit) * 10 + unit / 2) / unit;
        std::string s = std::to_string(tenths / 10);
        s += '.';
        s += static_cast<char>('0' + tenths % 10);
        s += ' ';
        s += name;
        return s;
    };
    if (bytes >= (std::uint64_t{1} << 30)) return one(bytes, std::uint64_t{1} << 30, "GiB");
    if (bytes >= (std::uint64_t{1} << 20)) return one(bytes, std::uint64_t{1} << 20, "MiB");
    if (bytes >= (std::uint64_t{1} << 10)) return one(bytes, std::uint64_t{1} << 10, "KiB");
    return std::to_string(bytes) + (bytes == 1 ? " byte" : " bytes");
}

std::string read_input_file(const std::string& path, std::string_view what, std::uint64_t max_bytes,
                            std::uint64_t max_line) {
    const std::string who = std::string(what) + " '" + path + "'";
    const auto fail = [&](const std::string& why) { throw UsageError(who + " " + why); };
    if (path.empty()) throw UsageError(std::string(what) + " '' is not valid; give a file");
    // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused below.
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) fail(std::string("cannot be read: ") + std::strerror(errno));
    struct Closer {
        int fd;
        ~Closer() { ::close(fd); }
    } closer{fd};
    struct stat st {};
    if (::fstat(fd, &st) != 0) fail(std::string("cannot be read: ") + std::strerror(errno));
    if (S_ISDIR(st.st_mode)) fail("is a folder, not a file");
    if (!S_ISREG(st.st_mode)) fail("is not a regular file (a device, FIFO or socket); give a file");
    if (static_cast<std::uint64_t>(st.st_size) > max_bytes)
        fail("is " + byte_size(static_cast<std::uint64_t>(st.st_size)) + "; odds reads at most " +
             byte_size(max_bytes) + " of it");
    std::string text;
    text.resize(static_cast<std::size_t>(st.st_size));
    std::size_t got = 0;
    for (;;) {  // the file may have grown since fstat: read to its end, within the bound
        if (got == text.size()) {
            if (text.size() >= max_bytes + 1) break;
            text.resize(std::min<std::uint64_t>(max_bytes + 1, text.size() + 65536));
        }
        const ssize_t r = ::read(fd, text.data() + got, text.size() - got);
        if (r < 0) {
            if (errno == EINTR) continue;
            fail(std::string("cannot be read: ") + std::strerror(errno));
        }
        if (r == 0) break;
        got += static_cast<std::size_t>(r);
    }
    text.resize(got);
    if (got > max_bytes)
        fail("is over " + byte_size(max_bytes) + "; odds reads at most " + byte_size(max_bytes) +
             " of it");
    std::size_t start = 0, line = 1;
    while (start <= text.size()) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        if (end - start > max_line)
            fail("line " + std::to_string(line) + " is " + byte_size(end - start) +
                 " long; a line holds at most " + byte_size(max_line));
        start = end + 1;
        ++line;
    }
    return text;
}

std::vector<std::string> split_words(std::string_view text) {
    std::vector<std::string> out;
    for (const auto w : LineReader::words_of(text)) out.emplace_back(w);
    return out;
}

namespace {
constexpr bool blank(char c) noexcept {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}
}  // namespace

std::vector<std::string_view> LineReader::words_of(std::string_view text) {
    std::vector<std::string_view> out;
    words_into(text, out);
    return out;
}

void LineReader::words_into(std::string_view text, std::vector<std::string_view>& out) {
    std::size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && blank(text[i])) ++i;
        const std::size_t start = i;
        while (i < text.size() && !blank(text[i])) ++i;
        if (i > start) out.push_back(text.substr(start, i - start));
    }
}

LineReader::LineReader(std::string_view text, std::string_view file, Comments comments)
    : all_(text), file_(file), comments_(comments) {}

bool LineReader::next() {
    words_.clear();
    while (!done_ && words_.empty()) {
        if (pos_ >= all_.size()) {
            done_ = true;
            text_of_line_ = {};
            break;
        }
        const auto end = all_.find('\n', pos_);
        std::string_view row = all_.substr(pos_, end == std::string_view::npos ? end : end - pos_);
        pos_ = end == std::string_view::npos ? all_.size() : end + 1;
        ++line_;
        if (comments_ == Comments::anywhere)
            if (const auto hash = row.find('#'); hash != std::string_view::npos)
                row = row.substr(0, hash);
        if (comments_ != Comments::none && !row.empty() && row.back() == '\r') row.remove_suffix(1);
        words_into(row, words_);
        if (comments_ == Comments::first_word && !words_.empty() && words_[0][0] == '#')
            words_.clear();
        text_of_line_ = row;
    }
    return !words_.empty();
}

std::string_view LineReader::word(std::size_t i) const {
    if (i >= words_.size())
        fail("'" + std::string(words_.empty() ? std::string_view() : words_[0]) +
             "' needs at least " + std::to_string(i + 1) + " words");
    return words_[i];
}

std::string_view LineReader::rest(std::size_t i) const {
    if (i >= words_.size()) return {};
    return text_of_line_.substr(static_cast<std::size_t>(words_[i].data() - text_of_line_.data()));
}

std::string_view LineReader::value() const {
    if (words_.empty()) return {};
    const auto after =
        static_cast<std::size_t>(words_[0].data() - text_of_line_.data()) + words_[0].size() + 1;
    return after >= text_of_line_.size() ? std::string_view() : text_of_line_.substr(after);
}

std::int64_t LineReader::integer(std::size_t i, std::int64_t lo, std::int64_t hi,
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

void LineReader::expect_words(std::size_t n, std::string_view usage) const {
    if (words_.size() != n)
        fail("expected " + std::to_string(n) + " words, got " + std::to_string(words_.size()) +
             ": " + std::string(usage));
}

void LineReader::once(int& first, std::string_view record) const {
    if (first)
        fail("a second '" + std::string(record) + "' line (the first is line " +
             std::to_string(first) + ")");
    first = line_;
}

void LineReader::fail(std::string_view what) const {
    if (line_ == 0 || (done_ && words_.empty())) throw UsageError(file_ + ": " + std::string(what));
    fail_at(line_, what);
}

void LineReader::fail_at(int line, std::string_view what) const {
    throw error_at(file_, line, what);
}

UsageError LineReader::error_at(std::string_view file, int line, std::string_view what) {
    return UsageError(std::string(file) + ":" + std::to_string(line) + ": " + std::string(what));
}

}  // namespace odds
