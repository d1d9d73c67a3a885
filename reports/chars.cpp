#include "reports/chars.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace odds {

// Floating-point std::to_chars: libstdc++ 11 and later (and MSVC); not libc++ before 17.
#if defined(__cpp_lib_to_chars) && __cpp_lib_to_chars >= 201611L
#define ODDS_FLOAT_TO_CHARS 1
#endif

namespace detail {

std::string printf_double_text(double v, DoubleForm form) {
    if (std::isnan(v)) return std::signbit(v) ? "-nan" : "nan";
    if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
    // The shortest digits that read back: %.{p-1}e is v correctly rounded to p digits, and the
    // first p that reads back is std::to_chars's shortest (no other string of p digits lies
    // nearer v).
    char buf[64];
    int p = 1;
    for (; p < 17; ++p) {
        std::snprintf(buf, sizeof buf, "%.*e", p - 1, v);
        if (std::strtod(buf, nullptr) == v) break;
    }
    if (p == 17) std::snprintf(buf, sizeof buf, "%.16e", v);
    // buf: [-]D[.DDD]e(+|-)XX
    const std::string s = buf;
    const bool negative = s[0] == '-';
    const std::size_t e_at = s.find('e');
    std::string digits;
    for (std::size_t i = negative ? 1 : 0; i < e_at; ++i)
        if (s[i] != '.') digits += s[i];
    const int exponent = std::atoi(s.c_str() + e_at + 1);
    const std::string sign = negative ? "-" : "";
    const int n = static_cast<int>(digits.size());
    // Fixed: the digits with the point after digit exponent + 1.
    std::string fixed;
    if (digits == "0") {
        fixed = "0";
    } else if (exponent >= 0) {
        // A whole number: its exact digits (%.0f), as long as the shortest digits padded with
        // zeros and nearer v (the standard's tie-break), which to_chars writes.
        if (n <= exponent + 1) {
            std::vector<char> whole(static_cast<std::size_t>(exponent) + 8);
            std::snprintf(whole.data(), whole.size(), "%.0f", std::fabs(v));
            fixed = whole.data();
        } else
            fixed = digits.substr(0, static_cast<std::size_t>(exponent + 1)) + "." +
                    digits.substr(static_cast<std::size_t>(exponent + 1));
    } else {
        fixed = "0." + std::string(static_cast<std::size_t>(-exponent - 1), '0') + digits;
    }
    fixed = sign + fixed;
    if (form == DoubleForm::fixed) return fixed;
    // Scientific: D[.DDD]e(+|-)XX, the exponent two digits at least.
    char exp_text[16];
    std::snprintf(exp_text, sizeof exp_text, "e%c%02d", exponent < 0 ? '-' : '+',
                  std::abs(exponent));
    std::string scientific = sign;  // appended, not added up (GCC 12's -Wrestrict misfires)
    scientific += digits[0];
    if (n > 1) {
        scientific += '.';
        scientific.append(digits, 1);
    }
    scientific += exp_text;
    return scientific.size() < fixed.size() ? scientific : fixed;  // a tie: fixed
}

}  // namespace detail

std::string double_text(double v, DoubleForm form) {
#ifdef ODDS_FLOAT_TO_CHARS
    char buf[400];  // the longest fixed double (-DBL_MAX, or a subnormal's 0.000...) fits
    const auto r = form == DoubleForm::fixed
                       ? std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed)
                       : std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, r.ptr);
#else
    return detail::printf_double_text(v, form);
#endif
}

namespace detail {
std::optional<double> strtod_text_double(std::string_view t) {
    // strtod takes what from_chars does not (leading space, a '+', hex, inf and nan spelt
    // otherwise): refused first.
    if (t.empty() || t.size() > 400 || t[0] == '+' ||
        t.find_first_not_of("-.0123456789eE+") != std::string_view::npos)
        return std::nullopt;
    const std::string s(t);
    char* end = nullptr;
    const double x = std::strtod(s.c_str(), &end);
    if (end != s.c_str() + s.size()) return std::nullopt;
    return x;
}
}  // namespace detail

std::optional<double> text_double(std::string_view t) {
#ifdef ODDS_FLOAT_TO_CHARS
    double x = 0;
    const auto r = std::from_chars(t.data(), t.data() + t.size(), x);
    if (r.ec != std::errc() || r.ptr != t.data() + t.size()) return std::nullopt;
    return x;
#else
    return detail::strtod_text_double(t);
#endif
}

std::string double_text_general(double v, int precision) {
#ifdef ODDS_FLOAT_TO_CHARS
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general, precision);
    return std::string(buf, r.ptr);
#else
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*g", precision, v);
    return buf;
#endif
}

}  // namespace odds
