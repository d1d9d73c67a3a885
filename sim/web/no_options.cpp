// The web build's stand-in for the compiled half of Boost.Program_options (sim/web/web.cmake),
// which Debian ships for the native machine alone. The page parses no command line: its door
// (sim/web/door.hpp) fills a command's Args by the options' names. What the commands keep for
// the command line (their option declarations, odds_main's parsing, `--help`) is linked but never
// called in the page; each function here, if it were, throws one logic_error naming this file, so
// the command's error would say so in its one line (tests/web_browser.py runs every command the
// page offers).
#include <boost/program_options.hpp>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {
[[noreturn]] void no_command_line() {
    throw std::logic_error("the web build parses no command line (sim/web/no_options.cpp)");
}
}  // namespace

namespace boost {
namespace program_options {

std::string arg("arg");
const unsigned options_description::m_default_line_length = 80;

std::string to_internal(const std::string&) { no_command_line(); }
void validate(boost::any&, const std::vector<std::string>&, std::string*, int) {
    no_command_line();
}
void store(const basic_parsed_options<char>&, variables_map&, bool) { no_command_line(); }
std::ostream& operator<<(std::ostream&, const options_description&) { no_command_line(); }

// The classes whose virtual functions live in the library: defining them here gives their
// vtables and type information.
error_with_option_name::error_with_option_name(const std::string& text, const std::string&,
                                               const std::string&, int)
    : error(text), m_error_template(text) {}
std::string validation_error::get_template(kind_t) {
    return "the web build parses no command line";
}
const char* error_with_option_name::what() const throw() {
    return "the web build parses no command line";
}
void error_with_option_name::substitute_placeholders(const std::string&) const {}
std::string error_with_option_name::get_canonical_option_name() const { return {}; }
void ambiguous_option::substitute_placeholders(const std::string&) const {}
invalid_option_value::invalid_option_value(const std::string&)
    : validation_error(validation_error::invalid_option_value) {
    no_command_line();
}
void value_semantic_codecvt_helper<char>::parse(boost::any&, const std::vector<std::string>&,
                                                bool) const {
    no_command_line();
}
abstract_variables_map::abstract_variables_map() : m_next(nullptr) {}
variables_map::variables_map() { no_command_line(); }
const variable_value& variables_map::get(const std::string&) const { no_command_line(); }

std::string option_description::canonical_display_name(int) const { no_command_line(); }
const std::string& option_description::description() const { no_command_line(); }
std::string option_description::format_parameter() const { no_command_line(); }
const std::string& option_description::long_name() const { no_command_line(); }

options_description::options_description(unsigned line, unsigned min)
    : m_line_length(line), m_min_description_length(min) {
    no_command_line();
}
options_description::options_description(const std::string&, unsigned line, unsigned min)
    : m_line_length(line), m_min_description_length(min) {
    no_command_line();
}
options_description& options_description::add(const options_description&) { no_command_line(); }
options_description_easy_init options_description::add_options() { no_command_line(); }
const option_description* options_description::find_nothrow(const std::string&, bool, bool,
                                                            bool) const {
    no_command_line();
}
const std::vector<shared_ptr<option_description>>& options_description::options() const {
    no_command_line();
}
options_description_easy_init& options_description_easy_init::operator()(const char*, const char*) {
    no_command_line();
}
options_description_easy_init& options_description_easy_init::operator()(const char*,
                                                                         const value_semantic*) {
    no_command_line();
}
options_description_easy_init& options_description_easy_init::operator()(const char*,
                                                                         const value_semantic*,
                                                                         const char*) {
    no_command_line();
}
positional_options_description::positional_options_description() { no_command_line(); }
positional_options_description& positional_options_description::add(const char*, int) {
    no_command_line();
}

namespace detail {
cmdline::cmdline(const std::vector<std::string>&) { no_command_line(); }
int cmdline::get_canonical_option_prefix() { no_command_line(); }
void cmdline::set_options_description(const options_description&) { no_command_line(); }
void cmdline::set_positional_options(const positional_options_description&) { no_command_line(); }
std::vector<option> cmdline::run() { no_command_line(); }
}  // namespace detail

}  // namespace program_options
}  // namespace boost
