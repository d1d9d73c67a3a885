// Doubles as text, as std::to_chars writes them, on any standard library.
//
// The reports write a double in three forms of std::to_chars: the shortest text that reads back
// to the same double (shortest), the same in fixed notation (fixed), and printf's %.Ng (general,
// N significant digits). Where the library has floating-point std::to_chars (libstdc++, the
// native build) it is used; where it has not (emscripten's libc++ 14, the web build of issue 44)
// the same text is made from printf's correctly rounded %.Ne, the shortest precision that reads
// back first; text is read back by std::from_chars, or strtod. tests/test_chars.cpp holds the
// two ways to each other over a million doubles.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace odds {

enum class DoubleForm {
    shortest,  // std::to_chars(first, last, v): fixed or scientific, whichever is shorter
    fixed,     // std::to_chars(first, last, v, std::chars_format::fixed)
};

// v (finite) in `form`.
std::string double_text(double v, DoubleForm form = DoubleForm::shortest);
// std::to_chars(first, last, v, std::chars_format::general, precision): printf's %.{precision}g.
std::string double_text_general(double v, int precision);

// The double a whole text `t` reads as (std::from_chars's general form: what double_text
// writes reads back to the same double); nullopt when `t` is not all one number.
std::optional<double> text_double(std::string_view t);

namespace detail {
// The printf-made text (what double_text is without floating-point std::to_chars), for the tests.
std::string printf_double_text(double v, DoubleForm form);
// The strtod-read value (what text_double is without floating-point std::from_chars).
std::optional<double> strtod_text_double(std::string_view t);
}  // namespace detail

}  // namespace odds
