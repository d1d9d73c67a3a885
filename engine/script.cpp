#include "engine/script.hpp"

#include <lua.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <utility>

#include "engine/line_reader.hpp"
#include "engine/script_state.hpp"
#include "engine/stop.hpp"
#include "engine/text.hpp"

namespace odds::script {

namespace {

constexpr int kHookEvery = 1000;  // instructions between two looks at the stop flag and budget
constexpr std::uint64_t kGameBudget = 2'000'000'000;  // one game's instructions in all
// odds exact's work (kMaxExactWork): a roll outcome taken counts as this many Lua instructions
// (its C side, the state written down and read back: measured on this machine, a Risk battle's
// solve and Bosconian-D's layouts refused both come to about 300 million units a second).
constexpr std::uint64_t kRollWork = 250;
constexpr std::size_t kMaxSequenceRolls = 100'000;  // odds exact: the rolls of one sequence
constexpr const char* kDiceType = "odds.dice";

// odds exact on a script (Machine::solve): every outcome of a step's rolls in turn. The step is
// played once a sequence of outcomes, depth first: `path` holds the outcome taken at each roll
// of this play (an index into the roll's law), `sizes` how many outcomes each roll has, `p` the
// probability of the outcomes taken so far.
struct Chance {
    std::vector<std::uint32_t> path, sizes;
    std::size_t at = 0;
    double p = 1;
    std::uint64_t taken = 0;  // roll outcomes taken in all
    // The value of a roll whose law is `law` (P(lo + i) = law[i]).
    int take(const std::vector<double>& law, int lo) {
        ++taken;
        if (at == path.size()) {
            path.push_back(0);
            sizes.push_back(static_cast<std::uint32_t>(law.size()));
        }
        const std::uint32_t i = path[at++];
        p *= law[i];
        return lo + static_cast<int>(i);
    }
    // On to the next sequence; false when every one has been played.
    bool next() {
        at = 0, p = 1;
        while (!path.empty()) {
            if (++path.back() < sizes.back()) return true;
            path.pop_back();
            sizes.pop_back();
        }
        return false;
    }
};

// What a Lua state knows of its owner: reached from any callback through the allocator's
// userdata (lua_getallocf), so no global and no registry lookup is needed.
struct Owner {
    std::string path;
    std::size_t used = 0;
    std::uint64_t count = 0;         // instructions run, in steps of kHookEvery
    std::uint64_t step_end = ~0ull;  // count at which the current step is over budget
    std::uint64_t game_end = ~0ull;  // odds exact: the work at which it is over budget
    std::uint64_t work_budget = 0;   // odds exact: its budget, for the message
    bool stopped = false;      // the stop flag was seen: the error is a stop, not the script's
    Dice* dice = nullptr;      // the game's dice while it plays
    Chance* chance = nullptr;  // instead, while odds exact enumerates a step's rolls
    std::map<int, std::vector<double>> uniform_laws;  // a die of n faces' law, made once
    std::vector<std::pair<DiceExpr, std::vector<double>>> dice_laws;  // a dice value's, once
    std::map<std::string, DiceExpr, std::less<>> dice_texts;          // roll("3d6"), parsed once
    // choose(): the seats' policies and the script's table of policies, while a game plays.
    std::span<const Seat> seats;
    const Declared* declared = nullptr;
    int state_ref = LUA_NOREF, options_ref = LUA_NOREF;
    // Search (rollout, mcts): while a seat searches, the current step's rolls and choices (a
    // choice as its 1-based index) are recorded on the tape; a simulation replays
    // tape[0..replay_end) from the step's start, so that it reaches the choice searched in the
    // same position, and then plays on as `simulation` says. `search` runs a search (installed
    // by the Machine).
    bool recording = false;
    std::vector<int> tape;
    std::size_t replay_at = 0, replay_end = 0;
    struct Simulation* simulation = nullptr;
    std::function<int(int seat, int n)> search;
    // Restricted play: each seat's barred choices under the options (Declared::restricts).
    std::array<std::vector<std::string>, 2> barred;
};

// A search's simulation in progress: its first free choice is `forced` (1-based), every later
// one asked of `next` (mcts's tree; absent, uniform on the simulation's dice).
struct Simulation {
    int forced = 0;
    std::function<int(int seat, int n)> next;
};

Owner& owner(lua_State* L) {
    void* ud = nullptr;
    (void)lua_getallocf(L, &ud);
    return *static_cast<Owner*>(ud);
}

void* allocate(void* ud, void* p, std::size_t old, std::size_t size) {
    Owner& o = *static_cast<Owner*>(ud);
    if (size == 0) {
        o.used -= old;
        std::free(p);
        return nullptr;
    }
    if (o.used - old + size > kMemoryCap) return nullptr;  // Lua: "not enough memory"
    void* q = std::realloc(p, size);
    if (q) o.used = o.used - old + size;
    return q;
}

// "FILE:LINE: " of the Lua function running at `level` (0: the one the hook interrupted), or
// "FILE: " where there is none.
std::string where(lua_State* L, int level) {
    lua_Debug ar;
    if (lua_getstack(L, level, &ar) && lua_getinfo(L, "Sl", &ar) && ar.currentline > 0)
        return owner(L).path + ":" + std::to_string(ar.currentline) + ": ";
    return owner(L).path + ": ";
}

[[noreturn]] void raise(lua_State* L, const std::string& message) {
    lua_pushstring(L, message.c_str());
    lua_error(L);
    std::abort();  // lua_error does not return
}

// odds exact's work so far (kExactBudget), and what is said when it runs out.
std::uint64_t exact_work(const Owner& o) { return o.count + kRollWork * o.chance->taken; }
std::string exact_too_long(std::uint64_t budget) {
    return "more work than odds exact's budget (" + std::to_string(budget) +
           " Lua instructions and roll outcomes): too many states and rolls to enumerate (odds "
           "run samples the game)";
}

void hook(lua_State* L, lua_Debug*) {
    Owner& o = owner(L);
    o.count += kHookEvery;
    if (stop_requested()) {
        o.stopped = true;
        raise(L, "stopped");
    }
    if (o.chance) {  // odds exact: every sequence of rolls, every state
        if (o.count > o.step_end)
            raise(L, where(L, 0) + "one sequence of a step's rolls ran past " +
                         std::to_string(kStepBudget) + " Lua instructions: an endless loop?");
        if (exact_work(o) > o.game_end) raise(L, where(L, 0) + exact_too_long(o.work_budget));
        return;
    }
    if (o.count > o.step_end)
        raise(L, where(L, 0) + "a step ran past " + std::to_string(kStepBudget) +
                     " Lua instructions: an endless loop?");
    if (o.count > o.game_end)
        raise(L, where(L, 0) + "a game ran past " + std::to_string(kGameBudget) +
                     " Lua instructions without ending: does over(s, o) ever return true?");
}

// The libraries a game needs, and nothing that reaches outside the state or makes a playout
// depend on anything but its dice.
void open_sandbox(lua_State* L) {
    using Open = int (*)(lua_State*);
    const std::pair<const char*, Open> libraries[] = {{"", luaopen_base},
                                                      {LUA_TABLIBNAME, luaopen_table},
                                                      {LUA_STRLIBNAME, luaopen_string},
                                                      {LUA_MATHLIBNAME, luaopen_math}};
    for (const auto& [name, open] : libraries) {
        lua_pushcfunction(L, open);
        lua_pushstring(L, name);
        lua_call(L, 1, 0);
    }
    for (const char* name :
         {"dofile", "loadfile", "load", "loadstring", "require", "module", "getfenv", "setfenv",
          "collectgarbage", "gcinfo", "newproxy", "print", "coroutine"}) {
        lua_pushnil(L);
        lua_setglobal(L, name);
    }
    lua_getglobal(L, "string");
    lua_pushnil(L);
    lua_setfield(L, -2, "dump");
    lua_pop(L, 1);
    lua_getglobal(L, "math");  // a playout's only chance is roll()
    for (const char* name : {"random", "randomseed"}) {
        lua_pushnil(L);
        lua_setfield(L, -2, name);
    }
    lua_pop(L, 1);
}

// Globals are the script's own once it is loaded: setting one while a game plays is an error,
// so no value carries from one game to the next through them.
int refuse_global(lua_State* L) {
    const char* name = lua_tostring(L, 2);
    raise(L, where(L, 1) + "a game may not set the global '" + (name ? name : "?") +
                 "' while it plays: keep its values in the state (local or in s)");
}

void freeze_globals(lua_State* L) {
    lua_pushvalue(L, LUA_GLOBALSINDEX);
    lua_newtable(L);
    lua_pushcfunction(L, refuse_global);
    lua_setfield(L, -2, "__newindex");
    lua_setmetatable(L, -2);
    lua_pop(L, 1);
}

// A protected call whose error becomes a UsageError (a stop: StopRequested).
void call(lua_State* L, int args, int results) {
    if (lua_pcall(L, args, results, 0) == 0) return;
    Owner& o = owner(L);
    if (o.stopped) {
        o.stopped = false;
        lua_pop(L, 1);
        throw StopRequested{};
    }
    std::string message = lua_isstring(L, -1) ? lua_tostring(L, -1) : "an error without a message";
    lua_pop(L, 1);
    if (message == "not enough memory")
        message =
            o.path + ": the script used more than " + std::to_string(kMemoryCap >> 20) + " MiB";
    else if (message.rfind(o.path, 0) != 0)
        message = o.path + ": " + message;
    throw UsageError(message);
}

// dice_min(x), dice_max(x): the smallest and largest total of a dice option's value or dice text.
template <bool kMax>
int dice_bound(lua_State* L) {
    DiceExpr e;
    if (lua_type(L, 1) == LUA_TUSERDATA) {
        e = *static_cast<const DiceExpr*>(luaL_checkudata(L, 1, kDiceType));
    } else {
        std::size_t n = 0;
        const char* s = lua_tolstring(L, 1, &n);
        std::string why = "not dice text";
        const auto parsed = s ? parse_dice(std::string_view(s, n), &why) : std::nullopt;
        if (!parsed)
            raise(L, where(L, 1) + (kMax ? "dice_max" : "dice_min") +
                         "(x): x is a dice option "
                         "or dice text (" +
                         why + ")");
        e = *parsed;
    }
    lua_pushinteger(L, kMax ? e.max() : e.min());
    return 1;
}

// A state with the sandbox and the hook, and the script's table on its stack's top.
lua_State* open_script(Owner& o, const std::string& source) {
    lua_State* L = lua_newstate(allocate, &o);
    if (!L) throw UsageError(o.path + ": could not make a Lua state");
    luaJIT_setmode(L, 0, LUAJIT_MODE_ENGINE | LUAJIT_MODE_OFF);  // hooks see every loop
    open_sandbox(L);
    lua_register(L, "dice_min", dice_bound<false>);
    lua_register(L, "dice_max", dice_bound<true>);
    lua_sethook(L, hook, LUA_MASKCOUNT, kHookEvery);
    if (luaL_loadbuffer(L, source.data(), source.size(), ("@" + o.path).c_str()) != 0) {
        std::string message = lua_tostring(L, -1);
        lua_close(L);
        throw UsageError(message.rfind(o.path, 0) == 0 ? message : o.path + ": " + message);
    }
    o.step_end = o.count + kStepBudget;
    try {
        call(L, 0, 1);
    } catch (...) {
        lua_close(L);
        throw;
    }
    o.step_end = ~0ull;
    if (!lua_istable(L, -1)) {
        lua_close(L);
        throw UsageError(o.path + ": the script must end with `return { ... }`, the game's table");
    }
    freeze_globals(L);
    return L;
}

// ---------------------------------------------------------------------------------------------
// Reading the declarations.

struct Reader {
    lua_State* L;
    const std::string& path;
    [[noreturn]] void bad(const std::string& what) const { throw UsageError(path + ": " + what); }
    // The field `key` of the table at `index` pushed; false (nothing pushed) when nil.
    bool field(int index, const char* key) const {
        lua_getfield(L, index, key);
        if (!lua_isnil(L, -1)) return true;
        lua_pop(L, 1);
        return false;
    }
    std::string text(int index, const char* key, const std::string& in, bool required,
                     std::string fallback = "") const {
        if (!field(index, key)) {
            if (required) bad(in + " needs `" + key + "`, a string");
            return fallback;
        }
        if (lua_type(L, -1) != LUA_TSTRING) bad(in + "'s `" + key + "` must be a string");
        std::string s = lua_tostring(L, -1);
        lua_pop(L, 1);
        return s;
    }
    bool boolean(int index, const char* key, const std::string& in, bool fallback) const {
        if (!field(index, key)) return fallback;
        if (lua_type(L, -1) != LUA_TBOOLEAN) bad(in + "'s `" + key + "` must be true or false");
        const bool b = lua_toboolean(L, -1);
        lua_pop(L, 1);
        return b;
    }
    std::int64_t integer(int index, const char* key, const std::string& in,
                         std::int64_t fallback) const {
        if (!field(index, key)) return fallback;
        const double v = lua_tonumber(L, -1);
        if (lua_type(L, -1) != LUA_TNUMBER || v != std::floor(v) || std::abs(v) > 1e15)
            bad(in + "'s `" + key + "` must be a whole number");
        lua_pop(L, 1);
        return static_cast<std::int64_t>(v);
    }
    // A bound: a whole number, the name of an integer option, or a function of the options.
    std::string bound(int index, const char* key, const std::string& in) const {
        if (!field(index, key))
            bad(in + " needs `" + key + "`: a whole number or an option's name");
        std::string s;
        if (lua_isfunction(L, -1))
            s = kFunction;
        else if (lua_type(L, -1) == LUA_TSTRING)
            s = lua_tostring(L, -1);
        else if (lua_type(L, -1) == LUA_TNUMBER &&
                 lua_tonumber(L, -1) == std::floor(lua_tonumber(L, -1)))
            s = std::to_string(static_cast<std::int64_t>(lua_tonumber(L, -1)));
        else
            bad(in + "'s `" + key + "` must be a whole number or an option's name");
        lua_pop(L, 1);
        return s;
    }
    // Calls each(i, here) with the i-th item of the list `key` (at most `most`) on the stack's
    // top, `here` naming it for errors ("options[2]").
    template <class Each>
    void items(int index, const char* key, const std::string& in, const char* what, int most,
               Each each) const {
        if (!field(index, key)) return;
        if (!lua_istable(L, -1)) bad(in + "'s `" + key + "` must be a " + what);
        for (int i = 1;; ++i) {
            lua_rawgeti(L, -1, i);
            if (lua_isnil(L, -1)) {
                lua_pop(L, 1);
                break;
            }
            if (i > most) bad(in + "'s `" + key + "` has more than " + std::to_string(most));
            each(lua_gettop(L), std::string(key) + "[" + std::to_string(i) + "]");
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
    }
    std::vector<std::string> names(int index, const char* key, const std::string& in) const {
        std::vector<std::string> out;
        items(index, key, in, "list of strings", kMaxMetrics, [&](int i, const std::string&) {
            if (lua_type(L, i) != LUA_TSTRING)
                bad(in + "'s `" + key + "` must be a list of strings");
            out.emplace_back(lua_tostring(L, i));
        });
        return out;
    }
    // Calls each(i, here) with the i-th table of the list `key` on the stack's top.
    template <class Each>
    void list(int index, const char* key, const std::string& in, int most, Each each) const {
        items(index, key, in, "list of tables", most, [&](int i, const std::string& here) {
            if (!lua_istable(L, i)) bad(here + " must be a table");
            each(i, here);
        });
    }
};

bool is_name(const std::string& s) {
    return !s.empty() && s.size() <= 40 && std::all_of(s.begin(), s.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.';
    });
}

ScriptOption read_option(const Reader& r, int t, const std::string& in) {
    ScriptOption o;
    o.name = r.text(t, "name", in, true);
    if (!is_name(o.name)) r.bad(in + ": the option name '" + o.name + "' is not lower-case words");
    o.help = r.text(t, "help", in, true);
    o.ruling = r.text(t, "ruling", in, false);
    const std::string type = r.text(t, "type", in, false, "integer");
    const std::string show = r.text(t, "show", in, false, "always");
    if (show != "always" && show != "changed")
        r.bad(in + " (" + o.name + "): show is always or changed, not '" + show + "'");
    o.always = show == "always";
    if (!r.field(t, "default")) r.bad(in + " (" + o.name + ") needs a `default`");
    lua_pushvalue(r.L, -1);
    o.default_text = lua_type(r.L, -1) == LUA_TBOOLEAN ? (lua_toboolean(r.L, -1) ? "true" : "false")
                     : lua_isstring(r.L, -1)           ? lua_tostring(r.L, -1)
                                                       : "";
    lua_pop(r.L, 2);
    if (type == "integer") {
        o.type = OptionType::integer;
        o.min = r.integer(t, "min", in, 0);
        o.max = r.integer(t, "max", in, 1'000'000);
        if (o.min > o.max) r.bad(in + " (" + o.name + "): min is above max");
    } else if (type == "boolean") {
        o.type = OptionType::boolean;
    } else if (type == "dice") {
        o.type = OptionType::dice;
    } else if (type == "faces") {
        o.type = OptionType::faces;
        o.sides = static_cast<int>(r.integer(t, "sides", in, 6));
        if (o.sides < 2 || o.sides > kMaxDieSides)
            r.bad(in + " (" + o.name + "): sides must be 2.." + std::to_string(kMaxDieSides));
    } else if (type == "choice") {
        o.type = OptionType::choice;
        o.words = r.names(t, "words", in);
        if (o.words.empty()) r.bad(in + " (" + o.name + "): a choice needs its `words`");
    } else {
        r.bad(in + " (" + o.name + "): type '" + type +
              "' is not one of integer, boolean, dice, faces, choice");
    }
    return o;
}

ScriptMetric read_metric(const Reader& r, int t, const std::string& in) {
    ScriptMetric m;
    m.name = r.text(t, "name", in, true);
    if (!is_name(m.name) || m.name.find('.') != std::string::npos)
        r.bad(in + ": the metric name '" + m.name + "' is not lower-case words joined by _");
    m.help = r.text(t, "help", in, true);
    const std::string kind = r.text(t, "kind", in, false, "count");
    if (kind != "rate" && kind != "count") r.bad(in + " (" + m.name + "): kind is rate or count");
    m.kind = kind == "rate" ? MetricKind::rate : MetricKind::count;
    if (m.kind == MetricKind::rate) {
        m.lo = "0", m.hi = "1";
    } else {
        m.lo = r.bound(t, "lo", in);
        m.hi = r.bound(t, "hi", in);
        m.unit = r.text(t, "unit", in, false);
        if (m.unit.empty())
            r.bad(in + " (" + m.name +
                  "): a count says what it counts, unit = \"armies\" (plural, in words)");
    }
    const std::int64_t scale = r.integer(t, "scale", in, 1);
    if (scale < 1 || scale > 1000) r.bad(in + " (" + m.name + "): scale is 1..1000");
    m.scale = static_cast<std::int32_t>(scale);
    return m;
}

void check_function(const Reader& r, int t, const char* name, const std::string& how) {
    lua_getfield(r.L, t, name);
    const bool ok = lua_isfunction(r.L, -1);
    lua_pop(r.L, 1);
    if (!ok) r.bad("the game's table has no function `" + std::string(name) + "` (" + how + ")");
}

// `restrict`: the choices a restriction may bar, a list of strings (solo) or one per seat
// ({a = {...}, b = {...}}); each list becomes the option restrict or restrict.SEAT.
void read_restrict(const Reader& r, int t, Declared& d) {
    if (!r.field(t, "restrict")) return;
    const bool table = lua_istable(r.L, -1);
    lua_pop(r.L, 1);
    if (!table) r.bad("`restrict` must be a list of the choices a restriction may bar");
    const auto add = [&](int seat, std::vector<std::string> words) {
        if (words.empty()) return;
        for (const auto& w : words)
            if (!is_name(w) || w.find(',') != std::string::npos)
                r.bad("restrict: '" + w + "' is not a lower-case word");
        if (words.size() > 16) r.bad("restrict: at most 16 words a seat");
        for (const auto& o : d.options)
            if (o.type != OptionType::restrict &&
                (o.name == "restrict" || o.name.rfind("restrict.", 0) == 0))
                r.bad("option " + o.name + ": odds makes the restrict options from `restrict`");
        ScriptOption o;
        o.name =
            d.seats.empty() ? "restrict" : "restrict." + d.seats[static_cast<std::size_t>(seat)];
        o.type = OptionType::restrict;
        o.words = std::move(words);
        o.default_text = "none";
        o.always = false;
        o.help = "restricted play: the choices " +
                 (d.seats.empty() ? std::string("the player")
                                  : d.seats[static_cast<std::size_t>(seat)]) +
                 " may never make (every policy honours it)";
        d.restricts[static_cast<std::size_t>(seat)] = static_cast<int>(d.options.size());
        d.options.push_back(std::move(o));
    };
    lua_getfield(r.L, t, "restrict");
    const int list = lua_gettop(r.L);
    // A solo game's is a list (whole-number keys), a two-seat game's keyed by its seats.
    for (lua_pushnil(r.L); lua_next(r.L, list); lua_pop(r.L, 1)) {
        const bool named = lua_type(r.L, -2) == LUA_TSTRING;
        if (d.seats.empty() && named)
            r.bad("`restrict` of a solo game is a list of the choices a restriction may bar");
        if (!d.seats.empty() && (!named || std::find(d.seats.begin(), d.seats.end(),
                                                     lua_tostring(r.L, -2)) == d.seats.end()))
            r.bad("`restrict` of a two-seat game is one list a seat: {" + d.seats[0] +
                  " = {...}, " + d.seats[1] + " = {...}}");
    }
    lua_pop(r.L, 1);
    if (d.seats.empty()) return add(0, r.names(t, "restrict", "the game"));
    lua_getfield(r.L, t, "restrict");
    const int seats = lua_gettop(r.L);
    for (int seat = 0; seat < 2; ++seat)
        add(seat, r.names(seats, d.seats[static_cast<std::size_t>(seat)].c_str(), "restrict"));
    lua_pop(r.L, 1);
}

// `goal = "NAME"` or "-NAME": the metric a solo game's search maximises or minimises (default:
// the first headline metric, maximised).
void read_goal(const Reader& r, int t, Declared& d) {
    std::string goal = r.text(t, "goal", "the game", false, d.headline.front());
    d.goal_least = !goal.empty() && goal[0] == '-';
    if (d.goal_least) goal.erase(0, 1);
    const auto it = std::find_if(d.metrics.begin(), d.metrics.end(),
                                 [&](const ScriptMetric& m) { return m.name == goal; });
    if (it == d.metrics.end())
        r.bad("goal '" + goal +
              "' is not one of the metrics (NAME to maximise, -NAME to minimise)");
    d.goal = static_cast<std::size_t>(it - d.metrics.begin());
}

std::shared_ptr<Declared> read_declared(lua_State* L, const std::string& path, std::string source) {
    auto d = std::make_shared<Declared>();
    d->path = path;
    d->source = std::move(source);
    const Reader r{L, path};
    const int t = lua_gettop(L);
    d->name = r.text(t, "name", "the game", true);
    std::string plain = d->name;
    std::replace(plain.begin(), plain.end(), '-', '_');
    if (!is_name(plain)) r.bad("the game's name '" + d->name + "' is not lower-case words");
    d->title = r.text(t, "title", "the game", false, d->name);
    d->summary = r.text(t, "summary", "the game", false, "a game written as a Lua script");
    d->version = static_cast<int>(r.integer(t, "version", "the game", 1));
    d->max_steps = r.integer(t, "max_steps", "the game", kDefaultMaxSteps);
    if (d->max_steps < 1 || d->max_steps > kMostSteps)
        r.bad("max_steps must be 1.." + std::to_string(kMostSteps));
    d->exact = r.boolean(t, "exact", "the game", true);
    d->seats = r.names(t, "seats", "the game");
    if (!d->seats.empty() && d->seats.size() != 2)
        r.bad("a game has no seats (solo) or two, not " + std::to_string(d->seats.size()));
    r.list(t, "options", "the game", kMaxOptions,
           [&](int i, const std::string& in) { d->options.push_back(read_option(r, i, in)); });
    r.list(t, "metrics", "the game", kMaxMetrics,
           [&](int i, const std::string& in) { d->metrics.push_back(read_metric(r, i, in)); });
    if (d->metrics.empty()) r.bad("the game declares no `metrics`");
    d->headline = r.names(t, "headline", "the game");
    if (d->headline.empty()) d->headline = {d->metrics.front().name};
    d->versus = r.names(t, "versus", "the game");
    if (!d->seats.empty() && d->versus.empty())
        d->versus = {d->seats[0] + "_win", d->seats[1] + "_win", "draw"};
    read_goal(r, t, *d);
    read_restrict(r, t, *d);
    r.list(t, "policies", "the game", kMaxPolicies, [&](int i, const std::string& in) {
        ScriptPolicy p{r.text(i, "name", in, true), r.text(i, "help", in, true)};
        if (!is_name(p.name)) r.bad(in + ": the policy name '" + p.name + "' is not lower-case");
        if (p.name == "random" || p.name == "rollout" || p.name == "mcts")
            r.bad(in + ": '" + p.name +
                  "' is a built-in policy of every script; name yours "
                  "otherwise");
        lua_getfield(L, i, "choose");
        const bool fn = lua_isfunction(L, -1);
        lua_pop(L, 1);
        if (!fn) r.bad(in + " (" + p.name + ") needs `choose`, a function(s, o, seat, choices)");
        d->policies.push_back(std::move(p));
    });
    using Kind = ScriptPolicy::Kind;
    d->policies.push_back(
        {"random", "uniform over the legal choices (on the game's dice)", Kind::random});
    d->policies.push_back({"rollout",
                           "flat Monte Carlo: each choice played on N times, random after it, "
                           "for the goal (two seats: the seat's win, draws half)",
                           Kind::rollout});
    d->policies.push_back({"mcts",
                           "open-loop UCT: N iterations, exploration C, random past the tree, "
                           "for the goal (two seats: the seat's win, draws half)",
                           Kind::mcts});
    d->ladder = r.names(t, "ladder", "the game");
    for (const auto& name : d->ladder)
        if (std::none_of(d->policies.begin(), d->policies.end(),
                         [&](const ScriptPolicy& p) { return p.name == name && !p.searches(); }))
            r.bad("ladder: '" + name + "' is not one of the game's policies (search aside)");
    if (d->ladder.empty()) {
        d->ladder.push_back("random");
        for (const auto& p : d->policies)
            if (p.kind == ScriptPolicy::Kind::script) d->ladder.push_back(p.name);
    }
    check_function(r, t, "opening", "opening(o) returns a fresh game's state");
    check_function(r, t, "step", "step(s, o, roll, choose) plays one step");
    check_function(r, t, "over", "over(s, o) says whether the game has ended");
    check_function(r, t, "result", "result(s, o) returns the metrics by name");
    return d;
}

}  // namespace

std::shared_ptr<const Declared> load(const std::string& path) {
    return load(path, read_input_file(path, "the game script", kMaxScriptFile, kMaxScriptLine));
}

std::shared_ptr<const Declared> load(const std::string& path, std::string source) {
    Owner o;
    o.path = path;
    lua_State* L = open_script(o, source);
    try {
        auto d = read_declared(L, path, std::move(source));
        lua_close(L);
        return d;
    } catch (...) {
        lua_close(L);
        throw;
    }
}

// ---------------------------------------------------------------------------------------------
// Values.

namespace {

std::optional<Value> parse_value(const ScriptOption& o, std::string_view text, std::string* why) {
    Value v;
    switch (o.type) {
        case OptionType::integer: {
            const auto n = parse_integer(text, o.min, o.max);
            if (!n) {
                *why = "a whole number " + std::to_string(o.min) + ".." + std::to_string(o.max);
                return std::nullopt;
            }
            v.number = *n;
            return v;
        }
        case OptionType::boolean:
            if (text != "true" && text != "false") {
                *why = "true or false";
                return std::nullopt;
            }
            v.number = text == "true";
            return v;
        case OptionType::dice: {
            const auto e = parse_dice(text, why);
            if (!e) return std::nullopt;
            v.dice = *e;
            return v;
        }
        case OptionType::faces: {
            const auto f = parse_faces(text, o.sides, why);
            if (!f) return std::nullopt;
            v.faces = *f;
            return v;
        }
        case OptionType::choice:
            for (std::size_t i = 0; i < o.words.size(); ++i)
                if (o.words[i] == text) {
                    v.number = static_cast<std::int64_t>(i);
                    return v;
                }
            *why = "one of " + joined(o.words, ", ");
            return std::nullopt;
        case OptionType::restrict: {
            const auto bits = read_word_set(text, joined(o.words, ","));
            if (!bits || text.empty()) {
                *why = "none, or comma-separated: " + joined(o.words, ", ");
                return std::nullopt;
            }
            v.number = *bits;
            return v;
        }
    }
    return std::nullopt;
}

}  // namespace

Values parse_values(const Declared& d, const Settings& settings) {
    Values v(d.options.size());
    std::vector<std::string> names;
    for (const auto& o : d.options) names.push_back(o.name);
    for (std::size_t i = 0; i < d.options.size(); ++i) {
        std::string why;
        const auto x = parse_value(d.options[i], d.options[i].default_text, &why);
        if (!x)
            throw UsageError(d.path + ": option " + d.options[i].name + "'s default '" +
                             d.options[i].default_text + "' is not " + why);
        v[i] = *x;
    }
    for (const auto& [name, text] : settings) {
        const auto it = std::find(names.begin(), names.end(), name);
        if (it == names.end())
            throw UsageError(
                "unknown option '" + name + "' for " + d.path + did_you_mean(name, names) +
                (names.empty() ? " (it has no options)" : " (valid: " + joined(names, ", ") + ")"));
        const auto i = static_cast<std::size_t>(it - names.begin());
        std::string why;
        const auto x = parse_value(d.options[i], text, &why);
        if (!x) throw UsageError("--set " + name + "='" + text + "': " + d.path + " takes " + why);
        v[i] = *x;
    }
    return v;
}

std::string value_text(const Declared& d, const Values& v, std::size_t i) {
    const ScriptOption& o = d.options[i];
    switch (o.type) {
        case OptionType::integer:
            return std::to_string(v[i].number);
        case OptionType::boolean:
            return v[i].number ? "true" : "false";
        case OptionType::dice:
            return to_string(v[i].dice);
        case OptionType::faces:
            return to_string(v[i].faces);
        case OptionType::choice:
            return o.words[static_cast<std::size_t>(v[i].number)];
        case OptionType::restrict:
            return write_word_set(static_cast<std::uint32_t>(v[i].number), joined(o.words, ","));
    }
    return "";
}

std::string scenario(const Declared& d, const Values& v) {
    const Values book = parse_values(d, {});
    std::string s;
    for (std::size_t i = 0; i < d.options.size(); ++i) {
        const std::string text = value_text(d, v, i);
        if (!d.options[i].always && text == value_text(d, book, i)) continue;
        s += (s.empty() ? "" : " ") + d.options[i].name + "=" + text;
    }
    return s.empty() ? "the rules as written" : s;
}

namespace {

// The metrics' specs; `call(i, "lo")` gives metric i's bound that is a function.
template <class Call>
std::vector<MetricSpec> specs_of(const Declared& d, const Values& v, Call call) {
    std::size_t metric = 0;
    const auto bound = [&](const std::string& b, const char* which) -> std::int32_t {
        if (b == kFunction) return call(metric, which);
        for (std::size_t i = 0; i < d.options.size(); ++i)
            if (d.options[i].name == b) {
                if (d.options[i].type != OptionType::integer)
                    throw UsageError(d.path + ": a metric's bound '" + b +
                                     "' names an option that is not a whole number");
                return static_cast<std::int32_t>(v[i].number);
            }
        const auto n = parse_integer(b, -(1 << 30), 1 << 30);
        if (!n)
            throw UsageError(d.path + ": a metric's bound '" + b +
                             "' is neither a whole number nor an option's name");
        return static_cast<std::int32_t>(*n);
    };
    std::vector<MetricSpec> out;
    for (const auto& m : d.metrics) {
        MetricSpec s{
            m.name,  m.help, m.kind, bound(m.lo, "lo") * m.scale, bound(m.hi, "hi") * m.scale,
            m.scale, m.unit};
        ++metric;
        if (s.lo > s.hi)
            throw UsageError(d.path + ": metric " + m.name + "'s range " + std::to_string(s.lo) +
                             ".." + std::to_string(s.hi) + " is empty under these options");
        if (static_cast<std::int64_t>(s.hi) - s.lo > 10'000'000)
            throw UsageError(d.path + ": metric " + m.name + "'s range is over 10 million values");
        out.push_back(std::move(s));
    }
    return out;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Playing.

namespace {

// A roll's value: from the game's dice, or from the enumeration while odds exact solves.
// A roll in play: replayed from the tape in a simulation, recorded on it while a seat searches.
template <class Draw>
int taped(Owner& o, Draw draw) {
    if (o.replay_at < o.replay_end) return o.tape[o.replay_at++];
    const int v = draw();
    if (o.recording) o.tape.push_back(v);
    return v;
}
int roll_value(Owner& o, int sides) {
    if (!o.chance) return taped(o, [&] { return roll_die(*o.dice, sides); });
    auto& law = o.uniform_laws[sides];
    if (law.empty()) law.assign(static_cast<std::size_t>(sides), 1.0 / sides);
    return o.chance->take(law, 1);
}
int roll_value(Owner& o, const DiceExpr& e) {
    if (!o.chance) return taped(o, [&] { return e.roll(*o.dice); });
    auto it = std::find_if(o.dice_laws.begin(), o.dice_laws.end(),
                           [&](const auto& known) { return known.first == e; });
    if (it == o.dice_laws.end()) {
        if (o.dice_laws.size() > 1000) o.dice_laws.clear();
        o.dice_laws.emplace_back(e, law(e));
        it = std::prev(o.dice_laws.end());
    }
    return o.chance->take(it->second, e.min());
}

int roll(lua_State* L) {
    Owner& o = owner(L);
    // odds exact takes the lowest outcome of a new roll first: a roll repeated until a face comes
    // up makes one sequence without end.
    if (o.chance && o.chance->at >= kMaxSequenceRolls)
        raise(L, where(L, 1) + "one sequence of a step's rolls took more than " +
                     std::to_string(kMaxSequenceRolls) +
                     " rolls: a roll repeated until a face comes up has endless sequences, which "
                     "odds exact cannot enumerate");
    switch (lua_type(L, 1)) {
        case LUA_TNUMBER: {
            const double sides = lua_tonumber(L, 1);
            if (sides != std::floor(sides) || sides < 2 || sides > kMaxDieSides)
                raise(L, where(L, 1) + "roll(" + std::to_string(sides) + "): a die has 2.." +
                             std::to_string(kMaxDieSides) + " faces");
            lua_pushinteger(L, roll_value(o, static_cast<int>(sides)));
            return 1;
        }
        case LUA_TUSERDATA: {
            const auto* e = static_cast<const DiceExpr*>(luaL_checkudata(L, 1, kDiceType));
            lua_pushinteger(L, roll_value(o, *e));
            return 1;
        }
        case LUA_TSTRING: {
            std::size_t n = 0;
            const char* s = lua_tolstring(L, 1, &n);
            const std::string_view text(s, n);
            auto it = o.dice_texts.find(text);
            if (it == o.dice_texts.end()) {
                std::string why;
                const auto e = parse_dice(text, &why);
                if (!e) raise(L, where(L, 1) + "roll('" + std::string(text) + "'): " + why);
                if (o.dice_texts.size() > 1000) o.dice_texts.clear();
                it = o.dice_texts.emplace(std::string(text), *e).first;
            }
            lua_pushinteger(L, roll_value(o, it->second));
            return 1;
        }
        default:
            raise(L, where(L, 1) +
                         "roll(x): x is a die's faces (6), dice text ('2d6') or a dice option");
    }
}

// A script policy's choice, 1-based: policies[i].choose(s, o, seat, choices), its answer one of
// the choices.
int script_choice(lua_State* L, const Owner& o, int seat, int list, int n) {
    const Declared& d = *o.declared;
    const Seat& st = o.seats[static_cast<std::size_t>(seat)];
    lua_getfield(L, LUA_REGISTRYINDEX, "odds.policies");
    lua_rawgeti(L, -1, st.policy + 1);
    lua_getfield(L, -1, "choose");
    lua_rawgeti(L, LUA_REGISTRYINDEX, o.state_ref);
    lua_rawgeti(L, LUA_REGISTRYINDEX, o.options_ref);
    if (d.seats.empty())
        lua_pushnil(L);
    else
        lua_pushstring(L, d.seats[static_cast<std::size_t>(seat)].c_str());
    lua_pushvalue(L, list);
    lua_getfield(L, LUA_REGISTRYINDEX, "odds.roll");
    lua_call(L, 5, 1);
    for (int i = 1; i <= n; ++i) {
        lua_rawgeti(L, list, i);
        const bool same = lua_rawequal(L, -1, -2);
        lua_pop(L, 1);
        if (same) {
            lua_pop(L, 3);
            return i;
        }
    }
    // A choice barred by a restriction (the policy's answer from the list before it): the first
    // choice left, so that a rule of thumb need not know of restrictions.
    const auto& barred = o.barred[static_cast<std::size_t>(seat)];
    if (lua_type(L, -1) == LUA_TSTRING &&
        std::find(barred.begin(), barred.end(), lua_tostring(L, -1)) != barred.end()) {
        lua_pop(L, 3);
        return 1;
    }
    raise(L, where(L, 1) + "policy '" + d.policies[static_cast<std::size_t>(st.policy)].name +
                 "' chose a value that is not one of the choices");
}

// A search's choice, 1-based (Owner::search); its errors raised as the script's.
int search_choice(lua_State* L, Owner& o, int seat, int n) {
    std::string error;
    try {
        return o.search(seat, n);
    } catch (const StopRequested&) {
        o.stopped = true;
        error = "stopped";
    } catch (const std::exception& e) {
        error = e.what();
    }
    raise(L, error);
}

// The choice of the seat's policy, 1-based, recorded on the tape while a seat searches.
int policy_choice(lua_State* L, Owner& o, int seat, int list, int n) {
    const ScriptPolicy& p =
        o.declared
            ->policies[static_cast<std::size_t>(o.seats[static_cast<std::size_t>(seat)].policy)];
    const bool recording = o.recording;
    o.recording = false;  // the policy's own rolls are not the game's: its choice is taped
    int k = 1;
    switch (p.kind) {
        case ScriptPolicy::Kind::random:
            k = n == 1 ? 1 : roll_value(o, n);
            break;
        case ScriptPolicy::Kind::rollout:
        case ScriptPolicy::Kind::mcts:
            k = n == 1 ? 1 : search_choice(L, o, seat, n);
            break;
        case ScriptPolicy::Kind::script:
            k = script_choice(L, o, seat, list, n);
            break;
    }
    o.recording = recording;
    if (recording) o.tape.push_back(k);
    return k;
}

int choose(lua_State* L) {
    Owner& o = owner(L);
    const Declared& d = *o.declared;
    int seat = 0, list = 1;
    if (!d.seats.empty()) {
        list = 2;
        const char* name = lua_tostring(L, 1);
        const auto it = name ? std::find(d.seats.begin(), d.seats.end(), name) : d.seats.end();
        if (it == d.seats.end())
            raise(L,
                  where(L, 1) + "choose(seat, choices): seat is one of " + joined(d.seats, ", "));
        seat = static_cast<int>(it - d.seats.begin());
    }
    if (!lua_istable(L, list))
        raise(L, where(L, 1) + "choose(" + (d.seats.empty() ? "" : "seat, ") +
                     "choices): choices is a list of one or more values");
    int n = static_cast<int>(lua_objlen(L, list));
    if (n < 1) raise(L, where(L, 1) + "choose: no choice to choose from");
    if (const auto& barred = o.barred[static_cast<std::size_t>(seat)]; !barred.empty()) {
        // Restricted play: every policy chooses among the choices left.
        lua_createtable(L, n, 0);
        int left = 0;
        for (int i = 1; i <= n; ++i) {
            lua_rawgeti(L, list, i);
            if (lua_type(L, -1) == LUA_TSTRING &&
                std::find(barred.begin(), barred.end(), lua_tostring(L, -1)) != barred.end()) {
                lua_pop(L, 1);
                continue;
            }
            lua_rawseti(L, -2, ++left);
        }
        if (left == 0)
            raise(
                L,
                where(L, 1) +
                    d.options[static_cast<std::size_t>(d.restricts[static_cast<std::size_t>(seat)])]
                        .name +
                    "=" + joined(barred, ",") + " bars every choice here");
        list = lua_gettop(L);
        n = left;
    }
    int k = 0;
    if (o.replay_at < o.replay_end)  // a simulation on its way to the choice searched
        k = o.tape[o.replay_at++];
    else if (o.simulation && o.simulation->forced)  // the choice searched
        k = std::exchange(o.simulation->forced, 0);
    else if (o.simulation)  // a simulation playing on: mcts's tree, else uniform
        k = o.simulation->next ? o.simulation->next(seat, n) : n == 1 ? 1 : roll_value(o, n);
    else
        k = policy_choice(L, o, seat, list, n);
    if (k < 1 || k > n)
        raise(L, where(L, 1) +
                     "a search replayed this step and it offered other choices: a "
                     "script's play must depend on nothing but its state, dice and "
                     "options");
    lua_rawgeti(L, list, k);
    return 1;
}

// A node of mcts's open-loop tree: its edges, one a choice (0-based), each scored for the seat
// that chose it.
struct UctNode {
    std::vector<int> child;  // -1: not yet added
    std::vector<double> total;
    std::vector<std::int64_t> visits;
    std::int64_t all = 0;

    // The edge UCB1 takes among m (the first untried, in order, before any is tried again); a
    // node that meets more choices than before (open loop) grows.
    int select(int m, double c) {
        if (static_cast<int>(child.size()) < m) {
            child.resize(static_cast<std::size_t>(m), -1);
            total.resize(static_cast<std::size_t>(m), 0);
            visits.resize(static_cast<std::size_t>(m), 0);
        }
        int k = 0;
        double best = -1;
        for (int i = 0; i < m; ++i) {
            const auto v = visits[static_cast<std::size_t>(i)];
            if (v == 0) return i;
            const double score = total[static_cast<std::size_t>(i)] / double(v) +
                                 c * std::sqrt(std::log(double(all)) / double(v));
            if (score > best) k = i, best = score;
        }
        return k;
    }
    void add(int k, double reward) {
        total[static_cast<std::size_t>(k)] += reward;
        ++visits[static_cast<std::size_t>(k)];
        ++all;
    }
    // The most visited of the first n edges (equal visits: the higher mean, then the first).
    int most_visited(int n) const {
        int best = 0;
        for (int i = 1; i < static_cast<int>(visits.size()) && i < n; ++i) {
            const auto a = static_cast<std::size_t>(i), b = static_cast<std::size_t>(best);
            if (visits[a] > visits[b] ||
                (visits[a] == visits[b] && visits[a] > 0 &&
                 total[a] / double(visits[a]) > total[b] / double(visits[b])))
                best = i;
        }
        return best;
    }
};

}  // namespace

struct Machine::Impl {
    std::shared_ptr<const Declared> d;
    Owner owner;
    lua_State* L = nullptr;
    int game_ref = LUA_NOREF;
    Values options_copy;    // the values options_ref was made from
    bool replayed = false;  // the first game has been played twice and agreed

    ~Impl() {
        if (L) lua_close(L);
    }
    void push_options(const Values& v);
    void play_once(Dice& dice, std::int32_t* out, std::string_view start);
    // The parts of a game, each a protected call under the step budget on the state at
    // owner.state_ref: opening(o) makes it; over(s, o); step(s, o, roll, choose); result(s, o)
    // read into out[0..].
    void fn(const char* name);
    // game[name](s, o), with roll and choose after them when `tools`, leaving `results`.
    void call_on_state(const char* name, bool tools, int results);
    void opening();
    bool over();
    void step();
    void result(std::int32_t* out);
    // odds exact: the state as bytes (engine/script_state.hpp), and the state made from them.
    std::string state_bytes();
    void set_state(std::string_view bytes);

    // Search (rollout, mcts): the state at the current step's start, the steps played so far,
    // and the goal metric's stored bounds (a solo game's reward is its goal scaled to 0..1).
    std::string step_start;
    std::int64_t steps = 0;
    std::int32_t goal_lo = 0, goal_hi = 1;
    Values goal_values;  // the options goal_lo and goal_hi are of
    bool goal_known = false;
    std::array<std::size_t, 3> versus{};  // two seats: the metrics of seat 0's and 1's win, draw
    using Rewards = std::array<double, 2>;
    Rewards rewards(const std::int32_t* out) const;
    // One simulation: the step's start read back, its rolls and choices replayed up to the
    // choice searched (tape[0..prefix)), then `sim` to the game's end. Each seat's reward.
    Rewards simulate(Simulation& sim, std::size_t prefix);
    // The choice (1-based) of seat's search among n, at the tape's end.
    int search(int seat, int n);
    bool searching() const;  // a seat's policy searches
    // The game's options and seats for play(), solve() or trace() (the goal's bounds for search).
    void prepare(const Values& o, std::span<const Seat> seats);
    // Steps until the game is over, before_step (if any) called before each.
    void play_on(const std::function<void()>& before_step = {});
    double estimate(int n, std::uint64_t seed);
    Machine* machine = nullptr;  // its owner, for metric_specs
    int rollout(int seat, int n, std::size_t prefix);
    int mcts(int seat, int n, std::size_t prefix);
};

Machine::Impl::Rewards Machine::Impl::rewards(const std::int32_t* out) const {
    if (!d->seats.empty()) {
        const double draw = 0.5 * out[versus[2]];
        return {out[versus[0]] + draw, out[versus[1]] + draw};
    }
    const double v = goal_hi > goal_lo ? double(out[d->goal] - goal_lo) / (goal_hi - goal_lo) : 0;
    return {d->goal_least ? 1 - v : v, 0};
}

Machine::Impl::Rewards Machine::Impl::simulate(Simulation& sim, std::size_t prefix) {
    read_state(L, step_start);
    owner.state_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    struct Drop {  // the simulation's state, however it ends
        lua_State* L;
        Owner& o;
        ~Drop() {
            luaL_unref(L, LUA_REGISTRYINDEX, o.state_ref);
            o.replay_at = o.replay_end = 0;
            o.simulation = nullptr;
        }
    } drop{L, owner};
    owner.replay_at = 0;
    owner.replay_end = prefix;
    owner.simulation = &sim;
    owner.game_end = owner.count + kGameBudget;  // each simulation a game's budget (search())
    step();
    if (owner.replay_at < prefix || sim.forced)
        throw UsageError(d->path +
                         ": a search replayed a step and it rolled or chose otherwise: "
                         "a script's play must depend on nothing but its state, dice "
                         "and options");
    for (std::int64_t k = steps + 1; !over(); ++k) {
        if (k >= d->max_steps)
            throw UsageError(d->path + ": a search's simulation ran past " +
                             std::to_string(d->max_steps) + " steps without ending");
        step();
    }
    std::int32_t out[kMaxMetrics];
    result(out);
    return rewards(out);
}

int Machine::Impl::search(int seat, int n) {
    // The game's context, put back however the search ends; the search's work is not charged to
    // the step's or the game's budget (each simulation's steps have their own).
    struct Context {
        Owner& o;
        int state = o.state_ref;
        Dice* dice = o.dice;
        bool recording = o.recording;
        std::uint64_t step_end = o.step_end, game_end = o.game_end, count = o.count;
        ~Context() {
            o.state_ref = state;
            o.dice = dice;
            o.recording = recording;
            o.step_end = step_end + (o.count - count);
            o.game_end = game_end + (o.count - count);
        }
    } context{owner};
    const std::size_t prefix = owner.tape.size();
    Dice dice(owner.dice->word());  // the search's own dice, from one word of the game's
    owner.dice = &dice;
    owner.recording = false;
    const ScriptPolicy& p =
        d->policies[static_cast<std::size_t>(owner.seats[static_cast<std::size_t>(seat)].policy)];
    return p.kind == ScriptPolicy::Kind::rollout ? rollout(seat, n, prefix) : mcts(seat, n, prefix);
}

int Machine::Impl::rollout(int seat, int n, std::size_t prefix) {
    const std::int64_t sims = owner.seats[static_cast<std::size_t>(seat)].n;
    int best = 1;
    double best_total = -1;
    for (int k = 1; k <= n; ++k) {
        double total = 0;
        for (std::int64_t j = 0; j < sims; ++j) {
            Simulation sim{k, {}};
            total += simulate(sim, prefix)[static_cast<std::size_t>(seat)];
        }
        if (total > best_total) best = k, best_total = total;
    }
    return best;
}

// Open-loop UCT: a node is the sequence of choices that led to it (whoever made them), its
// edges' statistics averaged over the dice that came between; each edge scored for the seat that
// chose it. Each iteration descends by UCB1 (the first untried edge, in the order listed, before
// any is tried again), adds one node, plays on uniformly, and backs up each seat's reward.
int Machine::Impl::mcts(int seat, int n, std::size_t prefix) {
    const Seat& st = owner.seats[static_cast<std::size_t>(seat)];
    std::vector<UctNode> nodes(1);
    struct Edge {
        int node, k, seat;
    };
    std::vector<Edge> path;
    for (std::int64_t it = 0; it < st.n; ++it) {
        path.clear();
        int at = 0;
        bool in_tree = true;
        Simulation sim{0, [&](int who, int m) {
                           if (!in_tree) return m == 1 ? 1 : roll_value(owner, m);
                           UctNode& node = nodes[static_cast<std::size_t>(at)];
                           const int k = node.select(m, st.c);
                           path.push_back({at, k, who});
                           int next = node.child[static_cast<std::size_t>(k)];
                           if (next < 0) {  // a new node: below it, uniform
                               next = static_cast<int>(nodes.size());
                               node.child[static_cast<std::size_t>(k)] = next;
                               nodes.emplace_back();  // `node` is not used past here
                               in_tree = false;
                           }
                           at = next;
                           return k + 1;
                       }};
        const Rewards r = simulate(sim, prefix);
        if (path.empty())
            throw UsageError(d->path +
                             ": a search replayed a step and it did not come to the "
                             "choice searched: a script's play must depend on nothing "
                             "but its state, dice and options");
        for (const Edge& e : path)
            nodes[static_cast<std::size_t>(e.node)].add(e.k, r[static_cast<std::size_t>(e.seat)]);
    }
    return nodes[0].most_visited(n) + 1;
}

Machine::Machine(std::shared_ptr<const Declared> d) : impl_(std::make_unique<Impl>()) {
    Impl& m = *impl_;
    m.d = std::move(d);
    m.owner.path = m.d->path;
    m.owner.declared = m.d.get();
    m.L = open_script(m.owner, m.d->source);
    lua_State* L = m.L;
    lua_getfield(L, -1, "policies");
    lua_setfield(L, LUA_REGISTRYINDEX, "odds.policies");
    m.game_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    luaL_newmetatable(L, kDiceType);
    lua_pop(L, 1);
    lua_pushcfunction(L, roll);
    lua_setfield(L, LUA_REGISTRYINDEX, "odds.roll");
    lua_pushcfunction(L, choose);
    lua_setfield(L, LUA_REGISTRYINDEX, "odds.choose");
    m.owner.search = [&m](int seat, int n) { return m.search(seat, n); };
    m.machine = this;
    for (std::size_t k = 0; k < m.d->versus.size() && k < 3; ++k)
        for (std::size_t i = 0; i < m.d->metrics.size(); ++i)
            if (m.d->metrics[i].name == m.d->versus[k]) m.versus[k] = i;
}

Machine::~Machine() = default;

std::vector<MetricSpec> Machine::metric_specs(const Values& o) {
    Impl& m = *impl_;
    lua_State* L = m.L;
    const int top = lua_gettop(L);
    m.push_options(o);
    const int options = lua_gettop(L);
    try {
        auto out = specs_of(*m.d, o, [&](std::size_t i, const char* which) {
            lua_rawgeti(L, LUA_REGISTRYINDEX, m.game_ref);
            lua_getfield(L, -1, "metrics");
            lua_rawgeti(L, -1, static_cast<int>(i) + 1);
            lua_getfield(L, -1, which);
            lua_pushvalue(L, options);
            m.owner.step_end = m.owner.count + kStepBudget;
            call(L, 1, 1);
            const double v = lua_tonumber(L, -1);
            if (lua_type(L, -1) != LUA_TNUMBER || v != std::floor(v) || std::abs(v) > (1 << 30))
                throw UsageError(m.d->path + ": metric " + m.d->metrics[i].name + "'s " + which +
                                 "(o) is not a whole number");
            lua_settop(L, options);
            return static_cast<std::int32_t>(v);
        });
        lua_settop(L, top);
        return out;
    } catch (...) {
        lua_settop(L, top);
        throw;
    }
}

// The options as the script reads them, o.NAME: a number, a boolean, a dice value for roll(), a
// table of faces (o.open[5] is true when 5 is one of them) or a word.
void Machine::Impl::push_options(const Values& v) {
    if (owner.options_ref != LUA_NOREF && options_copy == v) {  // the table made last time
        lua_rawgeti(L, LUA_REGISTRYINDEX, owner.options_ref);
        return;
    }
    lua_createtable(L, 0, static_cast<int>(d->options.size()));
    for (std::size_t i = 0; i < d->options.size(); ++i) {
        const ScriptOption& o = d->options[i];
        switch (o.type) {
            case OptionType::integer:
                lua_pushnumber(L, static_cast<double>(v[i].number));
                break;
            case OptionType::boolean:
                lua_pushboolean(L, v[i].number != 0);
                break;
            case OptionType::dice: {
                auto* e = static_cast<DiceExpr*>(lua_newuserdata(L, sizeof(DiceExpr)));
                *e = v[i].dice;
                luaL_getmetatable(L, kDiceType);
                lua_setmetatable(L, -2);
                break;
            }
            case OptionType::faces:
                lua_createtable(L, o.sides, 0);
                for (int f = 1; f <= o.sides; ++f) {
                    lua_pushboolean(L, v[i].faces.has(f));
                    lua_rawseti(L, -2, f);
                }
                break;
            case OptionType::choice:
                lua_pushstring(L, o.words[static_cast<std::size_t>(v[i].number)].c_str());
                break;
            case OptionType::restrict:  // o["restrict"].stop is true when stop is barred
                lua_createtable(L, 0, 0);
                for (std::size_t w = 0; w < o.words.size(); ++w)
                    if (v[i].number >> w & 1) {
                        lua_pushboolean(L, 1);
                        lua_setfield(L, -2, o.words[w].c_str());
                    }
                break;
        }
        lua_setfield(L, -2, o.name.c_str());
    }
    for (std::size_t seat = 0; seat < 2; ++seat) {
        owner.barred[seat].clear();
        if (const int k = d->restricts[seat]; k >= 0) {
            const ScriptOption& o = d->options[static_cast<std::size_t>(k)];
            for (std::size_t w = 0; w < o.words.size(); ++w)
                if (v[static_cast<std::size_t>(k)].number >> w & 1)
                    owner.barred[seat].push_back(o.words[w]);
        }
    }
    if (owner.options_ref != LUA_NOREF) luaL_unref(L, LUA_REGISTRYINDEX, owner.options_ref);
    lua_pushvalue(L, -1);
    owner.options_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    options_copy = v;
}

void Machine::Impl::fn(const char* name) {
    lua_rawgeti(L, LUA_REGISTRYINDEX, game_ref);
    lua_getfield(L, -1, name);
    lua_remove(L, -2);
}

void Machine::Impl::opening() {
    fn("opening");
    lua_rawgeti(L, LUA_REGISTRYINDEX, owner.options_ref);
    owner.step_end = owner.count + kStepBudget;
    call(L, 1, 1);
    if (!lua_istable(L, -1))
        throw UsageError(d->path + ": opening(o) returned a " + luaL_typename(L, -1) +
                         ", not the game's state (a table)");
    if (owner.state_ref != LUA_NOREF) luaL_unref(L, LUA_REGISTRYINDEX, owner.state_ref);
    owner.state_ref = luaL_ref(L, LUA_REGISTRYINDEX);
}

void Machine::Impl::call_on_state(const char* name, bool tools, int results) {
    fn(name);
    lua_rawgeti(L, LUA_REGISTRYINDEX, owner.state_ref);
    lua_rawgeti(L, LUA_REGISTRYINDEX, owner.options_ref);
    if (tools) {
        lua_getfield(L, LUA_REGISTRYINDEX, "odds.roll");
        lua_getfield(L, LUA_REGISTRYINDEX, "odds.choose");
    }
    owner.step_end = owner.count + kStepBudget;
    call(L, tools ? 4 : 2, results);
}

bool Machine::Impl::over() {
    call_on_state("over", false, 1);
    const bool done = lua_toboolean(L, -1);
    lua_pop(L, 1);
    return done;
}

void Machine::Impl::step() { call_on_state("step", true, 0); }

void Machine::Impl::result(std::int32_t* out) {
    const int top = lua_gettop(L);
    call_on_state("result", false, 1);
    if (!lua_istable(L, -1))
        throw UsageError(d->path + ": result(s, o) returned a " + luaL_typename(L, -1) +
                         ", not a table of metrics by name");
    for (std::size_t i = 0; i < d->metrics.size(); ++i) {
        const ScriptMetric& m = d->metrics[i];
        lua_getfield(L, -1, m.name.c_str());
        double x = 0;
        if (lua_type(L, -1) == LUA_TBOOLEAN)
            x = lua_toboolean(L, -1);
        else if (lua_type(L, -1) == LUA_TNUMBER)
            x = lua_tonumber(L, -1);
        else
            throw UsageError(d->path + ": result(s, o)'s metric '" + m.name + "' is a " +
                             luaL_typename(L, -1) + ", not a number or a boolean");
        lua_pop(L, 1);
        x *= m.scale;
        if (x != std::floor(x) || std::abs(x) > 1e9)
            throw UsageError(d->path + ": result(s, o)'s metric '" + m.name + "' is " +
                             std::to_string(x / m.scale) +
                             (m.scale == 1 ? ", not a whole number"
                                           : ", not a multiple of 1/" + std::to_string(m.scale)));
        out[i] = static_cast<std::int32_t>(x);
    }
    lua_settop(L, top);
}

bool searches(const std::vector<ScriptPolicy>& policies, std::span<const Seat> seats) {
    return std::any_of(seats.begin(), seats.end(), [&](const Seat& s) {
        return policies[static_cast<std::size_t>(s.policy)].searches();
    });
}

bool Machine::Impl::searching() const { return searches(d->policies, owner.seats); }

// Between two steps: every step played, each a protected call under the budgets.
void Machine::Impl::play_on(const std::function<void()>& before_step) {
    const bool search = searching();
    for (steps = 0; !over(); ++steps) {
        if (steps == d->max_steps)
            throw UsageError(d->path + ": a game ran past " + std::to_string(d->max_steps) +
                             " steps without ending: does over(s, o) ever return true? (a longer "
                             "game declares max_steps)");
        if (before_step) before_step();
        if (search) {  // a search replays the step from here (Machine::Impl::simulate)
            step_start = state_bytes();
            owner.tape.clear();
            owner.recording = true;
        }
        step();
    }
    owner.recording = false;
}

void Machine::Impl::prepare(const Values& o, std::span<const Seat> seats) {
    push_options(o);
    lua_pop(L, 1);
    owner.seats = seats;
    // Nothing of a game an error ended is left (a tape, a simulation, a replay).
    owner.recording = false;
    owner.tape.clear();
    owner.replay_at = owner.replay_end = 0;
    owner.simulation = nullptr;
    if (d->seats.empty() && !(goal_known && goal_values == o)) {
        // a solo game's result (search's reward, shape's p) is its goal scaled to 0..1 by the
        // metric's range
        const MetricSpec goal = machine->metric_specs(o)[d->goal];
        goal_lo = goal.lo, goal_hi = goal.hi;
        goal_values = o;
        goal_known = true;
    }
}

// odds shape's p_t: the mean result of n games played on from the state at hand by the seats'
// policies, game r on Dice(stream_seed(seed, r)); the game's state and dice put back.
double Machine::Impl::estimate(int n, std::uint64_t seed) {
    const std::string here = state_bytes();
    struct Context {
        Owner& o;
        std::int64_t& steps;
        int state = o.state_ref;
        Dice* dice = o.dice;
        std::int64_t at = steps;
        std::uint64_t game_end = o.game_end, count = o.count;
        ~Context() {  // the estimate's work not charged to the game's budget
            o.state_ref = state;
            o.dice = dice;
            o.game_end = game_end + (o.count - count);
            steps = at;
        }
    } context{owner, steps};
    double sum = 0;
    for (int r = 0; r < n; ++r) {
        throw_if_stop_requested();
        Dice dice(stream_seed(seed, static_cast<std::uint64_t>(r)));
        owner.dice = &dice;
        owner.game_end = owner.count + kGameBudget;
        read_state(L, here);
        owner.state_ref = luaL_ref(L, LUA_REGISTRYINDEX);
        struct Drop {
            lua_State* L;
            int ref;
            ~Drop() { luaL_unref(L, LUA_REGISTRYINDEX, ref); }
        } drop{L, owner.state_ref};
        play_on();
        std::int32_t out[kMaxMetrics];
        result(out);
        sum += rewards(out)[0];
    }
    return sum / n;
}

// One game: opening, steps until over, result; each a protected call under the budgets.
void Machine::Impl::play_once(Dice& dice, std::int32_t* out, std::string_view start) {
    owner.dice = &dice;
    owner.game_end = owner.count + kGameBudget;
    const int top = lua_gettop(L);
    if (start.empty())
        opening();
    else
        set_state(start);
    play_on();
    result(out);
    lua_settop(L, top);
    owner.step_end = owner.game_end = ~0ull;
}

std::string Machine::Impl::state_bytes() {
    lua_rawgeti(L, LUA_REGISTRYINDEX, owner.state_ref);
    try {
        std::string bytes = write_state(L, -1);
        lua_pop(L, 1);
        return bytes;
    } catch (const std::runtime_error& e) {
        lua_pop(L, 1);
        throw UsageError(d->path + ": " + e.what() +
                         " (odds exact and search write each state down)");
    }
}

void Machine::Impl::set_state(std::string_view bytes) {
    read_state(L, bytes);
    luaL_unref(L, LUA_REGISTRYINDEX, owner.state_ref);
    owner.state_ref = luaL_ref(L, LUA_REGISTRYINDEX);
}

void Machine::trace(const Values& o, Dice& dice, std::span<const Seat> seats, int rollouts,
                    const std::function<std::uint64_t(std::size_t)>& seed_of,
                    std::vector<double>& p) {
    Impl& m = *impl_;
    const int top = lua_gettop(m.L);
    p.clear();
    try {
        m.prepare(o, seats);
        m.owner.dice = &dice;
        m.owner.game_end = m.owner.count + kGameBudget;
        m.opening();
        m.play_on([&] { p.push_back(m.estimate(rollouts, seed_of(p.size()))); });
        std::int32_t out[kMaxMetrics];
        m.result(out);
        p.push_back(m.rewards(out)[0]);
        lua_settop(m.L, top);
        m.owner.step_end = m.owner.game_end = ~0ull;
    } catch (...) {
        lua_settop(m.L, top);
        m.owner.step_end = m.owner.game_end = ~0ull;
        throw;
    }
}

std::string Machine::opening_state(const Values& o) {
    Impl& m = *impl_;
    const int top = lua_gettop(m.L);
    m.push_options(o);
    lua_pop(m.L, 1);
    try {
        m.opening();
        std::string bytes = m.state_bytes();
        lua_settop(m.L, top);
        return bytes;
    } catch (...) {
        lua_settop(m.L, top);
        throw;
    }
}

void Machine::play(const Values& o, Dice& dice, std::span<const Seat> seats, std::int32_t* out,
                   std::string_view start) {
    Impl& m = *impl_;
    const int top = lua_gettop(m.L);
    try {
        m.prepare(o, seats);
        if (m.replayed) {
            m.play_once(dice, out, start);
            return;
        }
        // The first game twice, on the same dice: a script whose play depends on anything but
        // its dice and options (a value kept from an earlier game) plays it differently.
        std::int32_t again[kMaxMetrics];
        Dice a = dice, b = dice;
        m.play_once(a, out, start);
        m.play_once(b, again, start);
        Dice a_next = a, b_next = b;
        if (!std::equal(out, out + m.d->metrics.size(), again) || a_next.word() != b_next.word())
            throw UsageError(m.d->path +
                             ": the same game on the same dice played differently the second "
                             "time: a script must depend on nothing but its dice and options "
                             "(keep the game's values in its state, not in the script's "
                             "variables)");
        dice = a;
        m.replayed = true;
    } catch (...) {
        lua_settop(m.L, top);
        throw;
    }
}

// Every game at once: the opening's and each step's rolls enumerated, each state's probability
// carried to the states its outcomes lead to, equal states merged (their bytes the same), until
// every game has ended; a game still playing after max_steps steps is unresolved mass.
Solution Machine::solve(const Values& o, std::span<const Seat> seats, std::uint64_t max_states,
                        std::uint64_t max_work, std::string_view start) {
    Impl& m = *impl_;
    for (const Seat& seat : seats)
        if (const ScriptPolicy& p = m.d->policies[static_cast<std::size_t>(seat.policy)];
            p.searches())
            throw UsageError(m.d->path +
                             ": odds exact solves for policies that choose alike "
                             "whatever the dice to come; " +
                             p.name + " searches on sampled dice: name a rule of thumb or random");
    lua_State* L = m.L;
    const int top = lua_gettop(L);
    m.push_options(o);
    lua_pop(L, 1);
    m.owner.seats = seats;
    Chance chance;
    m.owner.chance = &chance;
    m.owner.game_end = m.owner.count + max_work;
    m.owner.work_budget = max_work;
    struct Restore {  // the machine plays on dice again, however this ends
        Impl& m;
        int top;
        ~Restore() {
            m.owner.chance = nullptr;
            m.owner.step_end = m.owner.game_end = ~0ull;
            lua_settop(m.L, top);
        }
    } restore{m, top};
    const std::string& path = m.d->path;
    Solution s;
    s.laws.resize(m.d->metrics.size());
    std::map<std::string, double> layer, next;
    // Each sequence of the rolls `play` makes, from the state `from` (none: the opening).
    const auto spread = [&](const std::string* from, double p, const auto& play) {
        std::uint64_t sequences = 0;
        do {
            if (from) m.set_state(*from);
            play();
            if (++sequences > kMaxStepOutcomes)
                throw UsageError(path + ": a step has more than " +
                                 std::to_string(kMaxStepOutcomes) +
                                 " sequences of roll outcomes, too many for odds exact");
            if (exact_work(m.owner) > m.owner.game_end)
                throw UsageError(path + ": " + exact_too_long(max_work));
            if (chance.p > 0) next[m.state_bytes()] += p * chance.p;
        } while (chance.next());
    };
    // over(s, o) and result(s, o) roll nothing: a roll there is an error in odds exact.
    const auto no_roll = [&](const char* what) {
        if (!chance.path.empty())
            throw UsageError(path + ": " + what +
                             " rolled dice: odds exact needs the rolls in opening and step");
    };
    if (start.empty())
        spread(nullptr, 1.0, [&] { m.opening(); });
    else
        next[std::string(start)] = 1.0;  // a position: the state it writes down
    std::int32_t out[kMaxMetrics];
    for (;;) {
        layer.swap(next);
        next.clear();
        if (layer.empty()) break;
        s.states += layer.size();
        if (s.states > max_states)
            throw UsageError(path + ": more than " + std::to_string(max_states) +
                             " states to enumerate, too many for odds exact (odds run samples "
                             "the game)");
        for (const auto& [bytes, p] : layer) {
            throw_if_stop_requested();
            m.set_state(bytes);
            const bool done = m.over();
            no_roll("over(s, o)");
            if (!done && s.steps == m.d->max_steps) {  // a game past max_steps: unresolved
                s.unresolved += p;
                continue;
            }
            if (!done) {
                spread(&bytes, p, [&] { m.step(); });
                continue;
            }
            m.result(out);
            no_roll("result(s, o)");
            for (std::size_t i = 0; i < s.laws.size(); ++i) s.laws[i][out[i]] += p;
        }
        ++s.steps;
    }
    s.rolls = chance.taken;
    return s;
}

}  // namespace odds::script
