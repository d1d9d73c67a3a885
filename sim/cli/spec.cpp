#include "sim/cli/spec.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <sstream>

#include "sim/cli/args.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/report.hpp"

namespace odds::cli {

namespace {

void completion_options(po::options_description&) {}

int cmd_completion(const Args& opt, Io io) {
    const std::string shell = opt.game.value_or("");
    if (shell == "bash")
        io.out << bash_completion();
    else if (shell == "zsh")
        io.out << zsh_completion();
    else
        throw UsageError("which shell? give bash or zsh" +
                         (shell.empty() ? std::string() : " ('" + shell + "' is neither)"));
    return 0;
}

int cmd_man(const Args&, Io io) {
    io.out << man_page();
    return 0;
}

std::vector<std::string> long_names(const po::options_description& d) {
    std::vector<std::string> names;
    for (const auto& o : d.options()) names.push_back("--" + o->long_name());
    return names;
}

// A Boost.Program_options error, said in odds's words.
[[noreturn]] void rethrow_in_our_words(const CommandSpec& c, const po::options_description& d,
                                       const po::error& e) {
    if (const auto* u = dynamic_cast<const po::unknown_option*>(&e)) {
        const std::string bad = u->get_option_name();
        std::string valid;
        for (const auto& n : long_names(d)) valid += (valid.empty() ? "" : ", ") + n;
        throw UsageError("unknown option '" + bad + "'" + did_you_mean(bad, long_names(d)) +
                         "; 'odds " + std::string(c.name) + "' takes " + valid);
    }
    if (dynamic_cast<const po::too_many_positional_options_error*>(&e)) {
        if (c.max_positional == 0)
            throw UsageError("'odds " + std::string(c.name) +
                             "' takes no arguments besides its options");
        throw UsageError("'odds " + std::string(c.name) + "' takes one " + c.positional +
                         "; give options as --NAME VALUE (usage: " + std::string(c.synopsis) + ")");
    }
    if (const auto* s = dynamic_cast<const po::invalid_command_line_syntax*>(&e)) {
        const std::string opt = s->get_option_name();
        switch (s->kind()) {
            case po::invalid_command_line_syntax::missing_parameter:
                throw UsageError("option '" + opt + "' needs a value (see 'odds " +
                                 std::string(c.name) + " --help')");
            case po::invalid_command_line_syntax::extra_parameter:
                throw UsageError("option '" + opt + "' takes no value");
            default:
                throw UsageError("cannot read option '" + opt +
                                 "'; options are --NAME VALUE, "
                                 "--NAME=VALUE or -X VALUE");
        }
    }
    if (const auto* m = dynamic_cast<const po::multiple_occurrences*>(&e))
        throw UsageError("option '" + m->get_option_name() + "' is given more than once");
    if (const auto* a = dynamic_cast<const po::ambiguous_option*>(&e))
        throw UsageError("option '" + a->get_option_name() + "' is ambiguous: spell it out");
    throw UsageError("cannot read the command line (see 'odds " + std::string(c.name) +
                     " --help')");
}

std::string roff_escape(std::string_view text) {
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char ch = text[i];
        if (ch == '\\')
            out += "\\e";
        else if (ch == '-')
            out += "\\-";
        else if ((ch == '.' || ch == '\'') && (i == 0 || text[i - 1] == '\n'))
            out += "\\&" + std::string(1, ch);
        else
            out += ch;
    }
    return out;
}

}  // namespace

// The dispatcher's own commands, made from the declarations.
const CommandSpec completion_spec = {
    "completion",
    "a shell completion script (bash or zsh)",
    "odds completion bash|zsh",
    "Prints a completion script for bash or zsh, made from odds's own declarations: commands, "
    "options, games, policies and rule options. The Debian package installs both.",
    {"source <(odds completion bash)", "odds completion zsh > ~/.zfunc/_odds"},
    "game",
    1,
    completion_options,
    cmd_completion};
const CommandSpec man_spec = {
    "man",
    "the manual page, in roff",
    "odds man",
    "Prints odds's manual page (roff), made from the same declarations as --help. The Debian "
    "package installs it as odds(1).",
    {"odds man | man -l -", "odds man > odds.1"},
    "none",
    0,
    no_options,
    cmd_man};

std::span<const CommandSpec> commands() {
    static const std::vector<CommandSpec> all = {
#define ODDS_COMMAND(NAME) NAME##_spec,
#include "sim/cli/commands.inc"
#undef ODDS_COMMAND
    };
    return all;
}

const CommandSpec& find_command(std::string_view name) {
    for (const auto& c : commands())
        if (c.name == name) return c;
    std::vector<std::string> names;
    for (const auto& c : commands()) names.emplace_back(c.name);
    throw UsageError("unknown command '" + std::string(name) + "'" + did_you_mean(name, names) +
                     " (valid: " + joined(names, ", ") + "; see odds --help)");
}

int run_command(const CommandSpec& c, const std::vector<std::string>& args, Io io,
                const Args::Sharing& sharing) {
    const auto vm = parse_command(c.name, args, io);
    if (!vm) return 0;  // --help: printed
    Args opt = args_of(*vm);
    opt.sharing = sharing;
    return c.run(opt, io);
}

po::options_description options_of(const CommandSpec& c, unsigned columns) {
    po::options_description d("options", columns, std::min(columns / 2, 40u));
    d.add_options()("help,h", "show this help");
    c.add_options(d);
    return d;
}

bool shares_out(std::string_view name) {
    for (const CommandSpec& c : commands())
        if (c.name == name) return options_of(c).find_nothrow("shard", false) != nullptr;
    return false;
}

unsigned help_columns() {
    unsigned cols = 0;
    if (const char* env = std::getenv("COLUMNS")) cols = static_cast<unsigned>(std::atoi(env));
    winsize w{};
    if (cols == 0 && isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &w) == 0)
        cols = w.ws_col;
    if (cols == 0) cols = 80;
    return std::clamp(cols, 60u, 160u);
}

std::string wrap(std::string_view text, unsigned columns, unsigned indent) {
    std::string out;
    std::size_t at = 0;
    while (at <= text.size()) {
        const auto nl = text.find('\n', at);
        const std::string_view para =
            text.substr(at, nl == std::string_view::npos ? std::string_view::npos : nl - at);
        std::istringstream words{std::string(para)};
        std::string line(indent, ' '), word;
        bool empty = true;
        while (words >> word) {
            if (!empty && line.size() + 1 + word.size() > columns) {
                out += line + '\n';
                line.assign(indent, ' ');
                empty = true;
            }
            line += (empty ? "" : " ") + word;
            empty = false;
        }
        out += (empty ? std::string() : line) + '\n';
        if (nl == std::string_view::npos) break;
        at = nl + 1;
    }
    return out;
}

std::optional<po::variables_map> parse_command(std::string_view name,
                                               const std::vector<std::string>& args, Io io) {
    const CommandSpec& c = find_command(name);
    const unsigned columns = help_columns();
    const po::options_description d = options_of(c, columns);
    po::variables_map vm;
    try {
        vm = parse(args, d, c.positional, c.max_positional);
    } catch (const po::error& e) {
        rethrow_in_our_words(c, d, e);
    }
    if (vm.count("help")) {
        io.out << help_text(c, columns);
        return std::nullopt;
    }
    return vm;
}

std::string help_text(const CommandSpec& c, unsigned columns) {
    std::ostringstream o;
    o << "usage: " << c.synopsis << "\n\n" << wrap(c.description, columns) << "\nexamples:\n";
    for (const auto& e : c.examples) o << "  " << e << '\n';
    o << '\n' << options_of(c, columns);
    return o.str();
}

std::string usage_text(unsigned columns) {
    std::ostringstream o;
    o << "odds: Monte Carlo and exact odds for tabletop dice games\n\nusage: odds COMMAND "
         "[options]\n\ncommands:\n";
    std::size_t wide = 0;
    for (const auto& c : commands()) wide = std::max(wide, c.name.size());
    for (const auto& c : commands())
        o << "  " << c.name << std::string(wide + 2 - c.name.size(), ' ') << c.summary << '\n';
    o << '\n'
      << wrap(
             "'odds COMMAND --help' describes a command, with examples. Exit codes: 0 done "
             "(check: unchanged), 1 failed while running or writing (check: the balance "
             "moved), 2 bad input (one line on stderr, nothing written), 130 interrupted "
             "(partial results written, marked partial; 143 after SIGTERM).",
             columns);
    return o.str();
}

std::string bash_completion() {
    std::ostringstream o;
    std::vector<std::string> command_names, game_names;
    for (const auto& c : commands()) command_names.emplace_back(c.name);
    for (const GameEntry& g : listed_games()) game_names.emplace_back(g.name);
    o << "# bash completion for odds, made by 'odds completion bash' from odds's own "
         "declarations.\n"
      << "_odds() {\n"
      << "  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} "
         "cmd=${COMP_WORDS[1]} game=\"\" i\n"
      << "  for ((i = 2; i < COMP_CWORD; i++)); do\n"
      << "    case ${COMP_WORDS[i]} in " << joined(game_names, "|")
      << ") game=${COMP_WORDS[i]} ;; esac\n"
      << "  done\n"
      << "  if ((COMP_CWORD == 1)); then COMPREPLY=($(compgen -W \"" << joined(command_names)
      << " --help --version\" -- \"$cur\")); return; fi\n"
      << "  case $prev in\n"
      << "    --out|-o|--state) COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n"
      << "    --policy|-p|--fixed)\n      case $game in\n";
    for (const GameEntry& g : listed_games()) {
        std::vector<std::string> names;
        for (const auto& p : g.policies) names.emplace_back(p.name);
        o << "        " << g.name << ") COMPREPLY=($(compgen -W \"" << joined(names)
          << "\" -- \"$cur\")) ;;\n";
    }
    o << "      esac; return ;;\n    --set|--vary)\n      case $game in\n";
    for (const GameEntry& g : listed_games()) {
        std::vector<std::string> names;
        for (const auto& opt : g.options) names.push_back(std::string(opt.name) + "=");
        o << "        " << g.name << ") compopt -o nospace 2>/dev/null; COMPREPLY=($(compgen -W \""
          << joined(names) << "\" -- \"$cur\")) ;;\n";
    }
    o << "      esac; return ;;\n  esac\n  case $cmd in\n";
    for (const auto& c : commands()) {
        const auto names = long_names(options_of(c));
        o << "    " << c.name << ")\n      if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W \""
          << joined(names) << "\" -- \"$cur\"))\n";
        if (std::string_view(c.positional) == "game")
            o << "      elif [[ -z $game ]]; then COMPREPLY=($(compgen -W \""
              << (c.name == "completion" ? std::string("bash zsh") : joined(game_names))
              << "\" -- \"$cur\"))\n";
        else if (std::string_view(c.positional) == "file" ||
                 std::string_view(c.positional) == "dir")
            o << "      else COMPREPLY=($(compgen -f -- \"$cur\"))\n";
        o << "      fi ;;\n";
    }
    o << "  esac\n}\ncomplete -F _odds odds\n";
    return o.str();
}

std::string zsh_completion() {
    std::ostringstream o;
    o << "#compdef odds\n# zsh completion for odds, made by 'odds completion zsh' from odds's own "
         "declarations.\n_odds() {\n  local -a commands games\n  commands=(\n";
    for (const auto& c : commands()) {  // single-quoted: a quote in the summary as '\''
        std::string summary;
        for (char ch : c.summary) summary += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
        o << "    '" << c.name << ":" << summary << "'\n";
    }
    o << "  )\n  games=(";
    for (const GameEntry& g : listed_games()) o << ' ' << g.name;
    o << " )\n  if (( CURRENT == 2 )); then _describe command commands; return; fi\n"
      << "  local game=${words[(r)(";
    std::vector<std::string> gn;
    for (const GameEntry& g : listed_games()) gn.emplace_back(g.name);
    o << joined(gn, "|") << ")]}\n  case ${words[CURRENT-1]} in\n"
      << "    --out|-o|--state) _files; return ;;\n    --policy|-p|--fixed)\n      case $game in\n";
    for (const GameEntry& g : listed_games()) {
        o << "        " << g.name << ") compadd --";
        for (const auto& p : g.policies) o << ' ' << p.name;
        o << " ;;\n";
    }
    o << "      esac; return ;;\n    --set|--vary)\n      case $game in\n";
    for (const GameEntry& g : listed_games()) {
        o << "        " << g.name << ") compadd -S '' --";
        for (const auto& opt : g.options) o << ' ' << opt.name << '=';
        o << " ;;\n";
    }
    o << "      esac; return ;;\n  esac\n  case ${words[2]} in\n";
    for (const auto& c : commands()) {
        o << "    " << c.name << ")\n      if [[ ${words[CURRENT]} == -* ]]; then compadd --";
        for (const auto& n : long_names(options_of(c))) o << ' ' << n;
        o << "\n";
        if (std::string_view(c.positional) == "game")
            o << "      elif [[ -z $game ]]; then compadd -- "
              << (c.name == "completion" ? std::string("bash zsh") : joined(gn)) << "\n";
        else if (std::string_view(c.positional) == "file" ||
                 std::string_view(c.positional) == "dir")
            o << "      else _files\n";
        o << "      fi ;;\n";
    }
    o << "  esac\n}\n_odds \"$@\"\n";
    return o.str();
}

std::string man_page() {
    std::ostringstream o;
    o << ".TH ODDS 1 \"\" \"odds " << ODDS_VERSION << "\" \"User Commands\"\n"
      << ".SH NAME\nodds \\- Monte Carlo and exact odds for tabletop dice games\n"
      << ".SH SYNOPSIS\n.B odds\n.I COMMAND\n[options]\n"
      << ".SH DESCRIPTION\n"
      << roff_escape(
             "odds plays tabletop dice games millions of times under pluggable AI "
             "policies, in parallel threads, and reports win rates and the "
             "distributions of damage, length and survival as CSV, with exact odds "
             "beside them where a solver exists. The same seed gives the same files "
             "whatever the number of threads.")
      << "\n.SH COMMANDS\n";
    for (const auto& c : commands()) {
        o << ".SS " << roff_escape(c.synopsis) << "\n" << roff_escape(c.description) << "\n";
        const auto d = options_of(c);
        for (const auto& opt : d.options()) {
            const std::string shorter =
                opt->canonical_display_name(po::command_line_style::allow_dash_for_short);
            const std::string names =
                (shorter.size() == 2 ? shorter + ", " : std::string()) + "--" + opt->long_name();
            o << ".TP\n.B " << roff_escape(names);
            const std::string param = opt->format_parameter();
            if (!param.empty()) o << " " << roff_escape(param);
            o << "\n" << roff_escape(opt->description()) << "\n";
        }
        o << ".PP\nExamples:\n.RS\n";
        for (const auto& e : c.examples) o << ".nf\n" << roff_escape(e) << "\n.fi\n";
        o << ".RE\n";
    }
    o << ".SH GAMES\n";
    for (const GameEntry& g : listed_games()) {
        o << ".SS " << g.name << " \\- " << roff_escape(g.title) << "\n"
          << roff_escape(g.summary) << ".\n.PP\nPolicies (\\-\\-policy):\n";
        for (const auto& p : g.policies)
            if (p.name.find('/') == std::string_view::npos ||
                p.name.find("/keep-") == std::string_view::npos)
                o << ".TP\n.B " << roff_escape(p.name) << "\n" << roff_escape(p.help) << "\n";
        o << ".PP\nRule options (\\-\\-set NAME=VALUE):\n";
        for (const auto& opt : g.options)
            o << ".TP\n.B "
              << roff_escape(std::string(opt.name) + "=" + std::string(opt.default_value)) << "\n"
              << roff_escape(opt.help) << "\n";
    }
    o << ".SH EXIT STATUS\n.TP\n.B 0\ndone (check: the balance is unchanged)\n.TP\n.B 1\nfailed "
         "while "
         "running or writing (check: the balance moved)\n.TP\n.B 2\nbad input: one line on "
         "standard error, nothing written\n.TP\n.B 130\ninterrupted: partial results written, "
         "marked partial (odds exact: nothing written)\n.TP\n.B 143\nstopped by SIGTERM: as "
         "130\n"
      << ".SH FILES\nThe CSV files each command writes are described in docs/output.md of the "
         "source tree.\n"
      << ".SH SEE ALSO\nodds list, odds COMMAND \\-\\-help\n";
    return o.str();
}

}  // namespace odds::cli
