#include "sim/web/door.hpp"

#include <algorithm>
#include <map>
#include <sstream>
#include <utility>
#include <vector>

#include "reports/check_report.hpp"
#include "sim/cli/args.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/spec.hpp"
#include "sim/shard_file.hpp"

namespace odds::web {

using namespace odds::cli;

namespace {

constexpr std::size_t kMaxRequest = 1 << 20;  // a request's bytes (a position is a file)
constexpr std::size_t kMaxLines = 4096;

struct Request {
    std::string command;
    std::map<std::string, std::vector<std::string>> options;  // name order: canonical_args's
    std::vector<std::string> flags;
};

Request read_request(std::string_view text) {
    if (text.size() > kMaxRequest)
        throw UsageError("a request of " + std::to_string(text.size()) + " bytes; at most " +
                         std::to_string(kMaxRequest));
    Request r;
    std::size_t lines = 0;
    for (std::size_t at = 0; at <= text.size(); ++lines) {
        if (lines >= kMaxLines) throw UsageError("a request of more than 4096 lines");
        const std::size_t nl = std::min(text.find('\n', at), text.size());
        const std::string_view line = text.substr(at, nl - at);
        at = nl + 1;
        if (lines == 0) {
            r.command = std::string(line);
        } else if (const auto eq = line.find('='); eq != std::string_view::npos) {
            r.options[std::string(line.substr(0, eq))].emplace_back(line.substr(eq + 1));
        } else if (!line.empty()) {
            if (std::find(r.flags.begin(), r.flags.end(), line) != r.flags.end())
                throw UsageError("option '--" + std::string(line) + "' given more than once");
            r.flags.emplace_back(line);
        }
    }
    return r;
}

const DoorCommand* door_command(std::string_view name) {
    for (const auto& c : door_commands())
        if (c.name == name) return &c;
    return nullptr;
}

// The request's options as the command's Args, as its parser would make them: each one the
// command declares, its declared default where it is not given; the command line recorded as the
// CLI records it.
Args args_of(const DoorCommand& c, const Request& r) {
    Args a;
    std::vector<Given> given;
    const auto declared = [&](const std::string& name) {
        if (name != "game" &&
            std::find(c.options.begin(), c.options.end(), name) == c.options.end())
            throw UsageError("unknown option '--" + name + "' for odds " + r.command);
    };
    for (const auto& [name, values] : r.options) {
        declared(name);
        if (is_flag(name)) throw UsageError("option '--" + name + "' takes no value");
        // A list is recorded value by value; an option the command takes once, as given.
        const bool list = is_list(name);
        if (!list && values.size() > 1)
            throw UsageError("option '--" + name + "' given more than once");
        for (const auto& v : values) set_arg(a, name, v);
        given.push_back({name, values, list});
    }
    for (const auto& f : r.flags) {
        declared(f);
        if (!is_flag(f)) throw UsageError("option '--" + f + "' takes a value: " + f + "=VALUE");
        set_arg(a, f, "");
        given.push_back({f, {}, false});
    }
    for (const auto& [name, value] : c.defaults)
        if (!r.options.count(std::string(name))) set_arg(a, name, std::string(value), true);
    std::sort(given.begin(), given.end(),
              [](const Given& x, const Given& y) { return x.name < y.name; });
    a.command_line = canonical_args(given, a, false);
    // The page plays on one thread a worker and draws its own progress.
    a.threads = Value{"1", false};
    a.no_progress = true;
    return a;
}

// odds merge DIR --out OUT, its command's Args read back from the shards' record (odds merge
// parses them; here every one was typed by the page, as read_request's).
int merge(const Request& r, Io io) {
    const auto one = [&](const char* name) {
        const auto it = r.options.find(name);
        if (it == r.options.end() || it->second.size() != 1)
            throw UsageError(std::string("merge needs one ") + name + "=DIR");
        return it->second.front();
    };
    const bool gaps = std::find(r.flags.begin(), r.flags.end(), "allow-gaps") != r.flags.end();
    Executor share = Executor::merge(read_shards(one("dir")), gaps);
    const Shard& s = share.result();
    Request again{s.command, {}, {}};
    for (const auto& arg : s.args) {
        const auto eq = arg.find('=');
        if (arg.rfind("--", 0) != 0)
            again.options["game"].push_back(arg);
        else if (eq == std::string::npos)
            again.flags.push_back(arg.substr(2));
        else
            again.options[arg.substr(2, eq - 2)].push_back(arg.substr(eq + 1));
    }
    again.options["out"] = {one("out")};
    const DoorCommand* c = door_command(s.command);
    if (!c) throw UsageError("shards of odds " + s.command + ", which the page does not run");
    Args a = args_of(*c, again);
    a.command_line = s.args;
    a.sharing.executor = &share;
    return find_command(s.command).run(a, io);
}

}  // namespace

std::span<const DoorCommand> door_commands() {
    // The options each command declares (sim/cli/NAME.cpp), less --help, --threads and
    // --no-progress, which the door sets itself; tests/test_web_door.cpp holds each list to the
    // declaration.
    static const DoorCommand commands[] = {
        {"run",
         {"playouts", "seed", "shard", "dry-run", "rules", "set", "policy", "state", "out",
          "report", "format"},
         {{"seed", "1"}}},
        {"exact", {"rules", "set", "policy", "state", "out", "report", "format"}, {}},
        {"compare",
         {"playouts", "seed", "shard", "dry-run", "rules", "set", "policy", "fixed", "variant",
          "no-exact", "rank-by", "metrics", "out", "report", "format"},
         {{"seed", "1"}}},
        {"list", {"json"}, {}},
        {"state", {"rules", "set"}, {}},
    };
    return commands;
}

Answer call(std::string_view text) {
    std::ostringstream out, err;
    Answer a;
    Request r;
    a.code = guarded("odds", Io{out, err}, [&] {
        r = read_request(text);
        return 0;
    });
    if (a.code == 0) {
        const DoorCommand* c = door_command(r.command);
        a.code =
            guarded(c || r.command == "merge" ? "odds " + r.command : "odds", Io{out, err}, [&] {
                if (r.command == "merge") return merge(r, Io{out, err});
                if (!c) throw UsageError("the page runs no command '" + r.command + "'");
                return find_command(r.command).run(args_of(*c, r), Io{out, err});
            });
    }
    a.out = out.str();
    a.err = err.str();
    return a;
}

std::string answer_json(const Answer& a) {
    return "{\"code\": " + std::to_string(a.code) + ", \"out\": " + json_string(a.out) +
           ", \"err\": " + json_string(a.err) + "}";
}

}  // namespace odds::web

#ifdef __EMSCRIPTEN__
// The module's one export: a request in, its answer as JSON out (valid until the next call).
extern "C" const char* odds_call(const char* request) {
    static std::string answer;
    answer = odds::web::answer_json(odds::web::call(request));
    return answer.c_str();
}
#endif
