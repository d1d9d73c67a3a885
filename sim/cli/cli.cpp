// The odds command line's dispatcher: a command's arguments to its module (sim/cli/commands.inc),
// its errors to one line on stderr, and the exit code. Exit codes: 0 done,
// 1 failed while running or writing (or, for check, the balance moved), 2 bad input (one line on
// stderr, nothing written), 130 interrupted by SIGINT, 143 by SIGTERM (partial results written,
// marked partial; odds exact writes nothing).
#include "sim/cli/cli.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <new>

#include "engine/stop.hpp"
#include "reports/csv.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/common.hpp"
#include "sim/cli/spec.hpp"
#include "sim/interrupt.hpp"
#include "sim/registry.hpp"
#include "sim/rules_file.hpp"

namespace odds {

namespace fs = std::filesystem;
using namespace cli;
int odds_main(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
    return cli::odds_main_sharing(argc, argv, out, err, nullptr);
}

int with_stdout_flushed(int rc) {
    errno = 0;
    std::cout.flush();
    const bool lost = !std::cout || std::fflush(stdout) != 0 || std::ferror(stdout);
    if (!lost) return rc;
    // A command that failed has said why in its one line (--json /dev/stdout on a full disk: the
    // same cause twice, issue 40).
    if (rc != 0) return rc;
    const int e = errno;
    std::cerr << "odds: cannot write to standard output"
              << (e ? std::string(": ") + std::strerror(e) : std::string()) << '\n';
    return rc == 0 ? 1 : rc;
}

int cli::odds_main_sharing(int argc, const char* const* argv, std::ostream& out, std::ostream& err,
                           Executor* share, const Team* team) {
    std::vector<std::string> args(argv + std::min(argc, 1), argv + argc);
    const std::string command = args.empty() ? "" : args.front();
    if (!args.empty()) args.erase(args.begin());
    bool known = false;
    for (const auto& c : commands()) known = known || c.name == command;
    const cli::Io io{out, err};
    const Args::Sharing sharing{share, team};
    return cli::guarded(known ? "odds " + command : "odds", io, [&] {
        if (command.empty()) {
            err << usage_text(help_columns());
            return 2;
        }
        if (command == "--help" || command == "-h" || command == "help") {
            out << usage_text(help_columns());
            return 0;
        }
        if (command == "--version" || command == "-V")
            return run_command(find_command("version"), args, io, sharing);
        return run_command(find_command(command), args, io, sharing);
    });
}

int cli::guarded(const std::string& who, Io io, const std::function<int()>& command) {
    InterruptGuard::reset();
    struct ReleaseOutDirs {  // the --out folders this command locked, however it ends
        ~ReleaseOutDirs() {
            release_out_dirs();
            forget_rules_origins();
            release_held_signals();  // a signal that came while files were written acts now
        }
    } release;
    forget_rules_origins();
    std::ostream& err = io.err;
    try {
        (void)games();  // every registration checked before anything else (validate)
        const int rc = command();
        // Stopped: 128 + the signal's number (130 SIGINT, 143 SIGTERM), whichever way the
        // command says it.
        return rc == 130 ? InterruptGuard::exit_code() : rc;
    } catch (const StopRequested&) {  // a solver or search stopped where nobody else caught it
        err << who << ": interrupted; nothing written\n";
        return InterruptGuard::exit_code();
    } catch (const UsageError& e) {
        // Every message through printable_message: a value with a newline or a terminal escape
        // is shown escaped, a long one cut, so the error stays one short line; a bad value a
        // variant file gave is named at its FILE:LINE.
        err << who << ": " << printable_message(with_rules_origin(e.what())) << '\n';
        return 2;
    } catch (const po::error& e) {  // a value the commands read themselves (as<T>)
        err << who << ": cannot read the command line: " << printable_message(e.what()) << " (see '"
            << who << " --help')\n";
        return 2;
    } catch (const std::bad_alloc&) {
        err << who
            << ": out of memory: this command needs more than the machine could give it "
               "(docs/commands.md says what each command holds at once)\n";
        return 1;
    } catch (const std::exception& e) {
        err << who << ": error: " << printable_message(e.what()) << '\n';
        return 1;
    }
}

}  // namespace odds
