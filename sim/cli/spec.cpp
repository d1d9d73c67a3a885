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

void no_options(po::options_description&) {}

void out_option(po::options_description& d, const char* what) {
    d.add_options()("out,o", po::value<std::string>()->value_name("DIR"), what);
}

void list_options(po::options_description& d) {
    d.add_options()("json",
                    "print everything as one JSON document, for tools: each game's title, "
                    "summary, seats, rules version, policies, options, metrics and exact "
                    "solver");
}

void run_options(po::options_description& d) {
    add_run_options(d);
    add_game_options(d);
    add_state_option(d,
                     "start every playout from the position in FILE instead of a fresh game "
                     "('odds state GAME' prints the opening one to edit; docs/positions.md)");
    out_option(d,
               "write summary.csv, distributions.csv and survival.csv into DIR (made if missing)");
    add_report_option(d);
    add_format_option(d, "summary.csv");
}

void exact_options(po::options_description& d) {
    add_game_options(d);
    add_state_option(d,
                     "solve from the position in FILE instead of a fresh game, for games whose "
                     "solver can (docs/positions.md)");
    out_option(d, "write summary.csv, distributions.csv (and survival.csv where solved) into DIR");
    add_report_option(d);
    add_format_option(d, "summary.csv");
}

void state_options(po::options_description& d) {
    add_rules_option(d);
    d.add_options()("set",
                    po::value<std::vector<std::string>>()->composing()->value_name("NAME=VALUE"),
                    "a rule option NAME=VALUE; repeatable ('odds list GAME' shows them)");
}

void compare_options(po::options_description& d) {
    add_run_options(d, "100k");
    add_game_options(d);
    d.add_options()("fixed",
                    po::value<std::vector<std::string>>()->composing()->value_name("SEAT=NAME"),
                    "a policy every entry plays with, for two-seat games")(
        "rank-by", po::value<std::string>()->value_name("METRIC"),
        "rank the policies by this metric, highest first (default: the game's first headline "
        "metric; a two-seat game's: the compared seat's wins)")(
        "metrics", po::value<std::string>()->value_name("A,B,..."),
        "the table's columns: these metrics, comma-separated ('odds list GAME' names them; "
        "default: the first four headline metrics)");
    out_option(d, "write compare.csv, policies.csv and each policy's summary.csv into DIR");
    add_report_option(d);
    add_format_option(d, "policies.csv");
}

void tournament_options(po::options_description& d) {
    add_run_options(d, "100k");
    add_game_options(d);
    out_option(d, "write tournament.csv and ratings.csv into DIR");
    add_report_option(d);
    add_format_option(d, "ratings.csv");
}

void skill_options(po::options_description& d) {
    d.add_options()("playouts,n", po::value<std::string>()->default_value("100")->value_name("N"),
                    "games a pairing (two seats) or a rung (solo): 100, 1e3, 2k")(
        "seed,s", po::value<std::string>()->default_value("1")->value_name("N"),
        "the ladder's seed (0 to 2^64-1)")("threads,j", po::value<std::string>()->value_name("N"),
                                           "worker threads (default: every hardware thread)")(
        "no-progress", "no progress bar, even on a terminal")(
        "search", po::value<std::string>()->value_name("SPELL"),
        "the search policy, {n} where its budget goes (default: the game's own, e.g. "
        "mcts:{n}), or none")(
        "budgets", po::value<std::string>()->value_name("LO..HI"),
        "search budgets, doubling from LO up to HI (default 16..64), or none")(
        "metric", po::value<std::string>()->value_name("METRIC"),
        "a solo game's measure of strength (default: its first headline metric)");
    add_shard_option(d);
    add_game_options(d);
    out_option(d, "write ladder.csv and skill.csv into DIR");
    add_report_option(d);
}

void shape_options(po::options_description& d) {
    d.add_options()("playouts,n", po::value<std::string>()->default_value("10k")->value_name("N"),
                    "games to sample: 10000, 1e5, 100k")(
        "seed,s", po::value<std::string>()->default_value("1")->value_name("N"),
        "the seed (0 to 2^64-1): game i plays on the dice of stream i")(
        "threads,j", po::value<std::string>()->value_name("N"),
        "worker threads (default: every hardware thread)")("no-progress",
                                                           "no progress bar, even on a terminal")(
        "rollouts", po::value<std::string>()->default_value("64")->value_name("N"),
        "games played on from each step by the seats' own policies, where p is estimated "
        "(1 to 100000)")("estimator", po::value<std::string>()->value_name("KIND"),
                         "exact (the default where the game has exact values) or rollouts");
    add_shard_option(d, "a shard keeps each of its games' odds step by step, 200000 games at most");
    add_game_options(d);
    out_option(d, "write shape.csv and fan.csv into DIR");
    add_report_option(d);
}

void restrict_options(po::options_description& d) {
    d.add_options()("restrict",
                    po::value<std::vector<std::string>>()->composing()->value_name("VALUE"),
                    "a restriction: a value of the game's restrict option, e.g. intensifier or "
                    "cover,halt (repeatable; default: each of its words alone)")(
        "seat", po::value<std::string>()->value_name("SEAT"),
        "two-seat games: the seat restricted (default: the first), or both")(
        "play", po::value<std::string>()->value_name("PLAY"),
        "the best available play: search (the game's search at --budget), thumbs (the best of "
        "its rules of thumb), or policy names, comma-separated (the best of them)")(
        "budget", po::value<std::string>()->value_name("N"), "--play search's budget (default 32)")(
        "opponent", po::value<std::string>()->value_name("NAME"),
        "two-seat games: the other seat's policy (default: --play's one policy, a mirror; "
        "several: the game's default policy)")(
        "metric", po::value<std::string>()->value_name("METRIC"),
        "a solo game's measure (default: its first headline metric)")(
        "exact", "the exact values from the game's solver (Dimension Duel), not sampled games")(
        "playouts,n", po::value<std::string>()->default_value("200")->value_name("N"),
        "games each restriction and each candidate play: 200, 1e3, 2k")(
        "seed,s", po::value<std::string>()->default_value("1")->value_name("N"),
        "the seed (0 to 2^64-1): game j plays on the dice of stream j in every group")(
        "threads,j", po::value<std::string>()->value_name("N"),
        "worker threads (default: every hardware thread)")("no-progress",
                                                           "no progress bar, even on a terminal");
    add_shard_option(d);
    add_game_options(d);
    out_option(d, "write restrict.csv into DIR");
    add_report_option(d);
}

void sweep_options(po::options_description& d) {
    d.add_options()(
        "vary", po::value<std::vector<std::string>>()->composing()->value_name("NAME=VALUES"),
        "a rule option and its values: NAME=LO..HI[:STEP] (alias LO:HI:STEP) or NAME=v1,v2,...; a "
        "comma-list option: NAME=VALUE, one --vary per value (repeatable)");
    add_run_options(d, "100k");
    add_game_options(d);
    out_option(d, "write sweep.csv into DIR");
    add_report_option(d);
    add_format_option(d, "sweep.csv");
}

void tune_options(po::options_description& d) {
    d.add_options()(
        "vary", po::value<std::vector<std::string>>()->composing()->value_name("NAME=VALUES"),
        "a rule option searched: NAME=LO..HI[:STEP] (alias LO:HI:STEP), NAME={LO..HI} inside a "
        "value ('damage={2..6}d6'), or values NAME=v1,v2,... or NAME='v1|v2|...' (a comma-list "
        "option: '|', or one --vary per value) (repeatable)")(
        "target", po::value<std::vector<std::string>>()->composing()->value_name("GOAL"),
        "what to meet: METRIC=VALUE, 'METRIC within LO..HI' (LO.. or ..HI: one side open), "
        "'METRIC max' or 'METRIC min', each with an optional @WEIGHT; several are combined as "
        "the weighted sum of their distances (repeatable)")(
        "search", po::value<std::string>()->value_name("HOW"),
        "bisection (one option, METRIC=VALUE, the metric monotone in it; the default there), "
        "halving (successive halving over every setting, or an exact scan; the default for one "
        "target over at most 4096 settings) or ntbea (the default otherwise)")(
        "no-exact", "play every setting, even where the game's exact solver could answer")(
        "budget", po::value<std::string>()->default_value("200")->value_name("N"),
        "NTBEA: trials, each one setting evaluated")(
        "trial-playouts", po::value<std::string>()->default_value("1k")->value_name("N"),
        "NTBEA: playouts a trial (a setting's k-th trial on the dice of every setting's k-th)")(
        "finalists", po::value<std::string>()->default_value("3")->value_name("K"),
        "NTBEA: the best K settings by the model, confirmed with --playouts on fresh dice")(
        "explore", po::value<std::string>()->default_value("1")->value_name("K"),
        "NTBEA: the exploration weight of the upper confidence bound, in units of the spread of "
        "the trials' values")(
        "neighbours", po::value<std::string>()->default_value("50")->value_name("N"),
        "NTBEA: settings mutated from the current one each trial, the most promising played")(
        "deviations", po::value<std::string>()->default_value("1")->value_name("N"),
        "NTBEA: after the trials, up to N rounds of one-step deviations from the best (every "
        "setting one option away, played; moving while one is better)");
    add_run_options(d, "100k",
                    "refused: the search picks what it plays next from what it has played, so "
                    "its work cannot be cut into shards before it plays (under mpirun every rank "
                    "plays a share of each evaluation; docs/cluster.md)");
    add_game_options(d);
    out_option(d,
               "write tune.csv (every evaluation on the path, the best marked) and best.toml "
               "(the best setting's variant file) into DIR");
    add_report_option(d);
}

void baseline_options(po::options_description& d) {
    add_run_options(d);
    add_game_options(d);
    d.add_options()("out,o", po::value<std::string>()->value_name("FILE"),
                    "the baseline file to write (required; its folder is made if missing)")(
        "tolerance", po::value<std::vector<std::string>>()->composing()->value_name("METRIC=X"),
        "record X as METRIC's tolerance: the shift 'odds check --sequential' tests for "
        "(repeatable)")("sequential",
                        "record that 'odds check' checks this baseline sequentially by default");
}

void check_options(po::options_description& d) {
    d.add_options()("rules", po::value<std::string>()->value_name("FILE"),
                    "play each baseline under the rule options of a variant file (those its game "
                    "has; a note names the others); --set applies on top");
    d.add_options()("seed,s", po::value<std::string>()->value_name("N"),
                    "play with this seed instead of the baseline's")(
        "playouts,n", po::value<std::string>()->value_name("N"),
        "play this many instead of the baseline's")(
        "threads,j", po::value<std::string>()->value_name("N"),
        "worker threads (default: every hardware thread)")(
        "set", po::value<std::vector<std::string>>()->composing()->value_name("NAME=VALUE"),
        "change a rule option from the baseline's (repeatable)")(
        "tolerance", po::value<std::vector<std::string>>()->composing()->value_name("METRIC=X"),
        "a change of METRIC's mean by at most X (in the metric's unit, X >= 0) is not an alarm: "
        "statistical mode alarms only when the shift exceeds X by more than the alarm threshold; "
        "exact mode passes counts that differ if the mean moved by at most X (repeatable)")(
        "junit", po::value<std::string>()->value_name("FILE"),
        "also write JUnit XML to FILE: a test suite per baseline, a test case per metric "
        "(its folder is made if missing)")(
        "json", po::value<std::string>()->value_name("FILE"),
        "also write the verdicts as one JSON document to FILE (its folder is made if missing)")(
        "sequential",
        "test each metric sequentially (GSPRT): play in batches until every metric is decided, "
        "unchanged or moved by its tolerance, or the cap is reached (exit 3: inconclusive)")(
        "false-alarm", po::value<std::string>()->value_name("A"),
        "sequential: the false-alarm rate per baseline, spread over its metrics by Bonferroni "
        "(default 0.001)")("miss", po::value<std::string>()->value_name("B"),
                           "sequential: the miss rate per metric (default 0.05)")(
        "max-playouts", po::value<std::string>()->value_name("N"),
        "sequential: play at most N playouts per file (default: twice the baseline's; a "
        "targets file's own playouts)")("no-progress", "no progress bar, even on a terminal");
    add_shard_option(d, "the fixed checks only: a sequential check cannot be shared out");
    out_option(d, "also write check.csv, every metric's verdict, into DIR (made if missing)");
    add_report_option(d);
}

void merge_options(po::options_description& d) {
    out_option(d, "write the merged command's files into DIR (a baseline's: the baseline FILE)");
}

void completion_options(po::options_description&) {}

void dice_options(po::options_description& d) {
    out_option(d, "also write DIR/dice.csv: every total's probability, at least and at most");
}

void rules_options(po::options_description& d) {
    add_rules_option(d);
    d.add_options()("set",
                    po::value<std::vector<std::string>>()->composing()->value_name("NAME=VALUE"),
                    "a rule option NAME=VALUE, written into the file; repeatable");
}

CommandFn cmd_completion, cmd_man;

const CommandSpec kCommands[] = {
    {"list",
     "the games, their policies, rule options and metrics",
     "odds list [GAME] [--json]",
     "Every game (or one): its policies, its rule options with their defaults, and its metrics "
     "(what each counts, rate or count, and its range at the default options), each with one "
     "line of help, and its exact solver's limits. With --json, the same (and each game's rules "
     "version, headline metrics and survival tables) as one JSON document, for tools.",
     {"odds list msc", "odds list --json"},
     "game",
     1,
     list_options,
     cmd_list},
    {"run",
     "play a game many times and report its odds",
     "odds run GAME [options]",
     "Plays GAME many times in parallel and reports its odds: a table on stdout and, with --out, "
     "the files summary.csv, distributions.csv and survival.csv (docs/output.md). The same seed "
     "gives the same files for any --threads.",
     {"odds run bosconian --playouts 1e7",
      "odds run msc --policy a=fast/strike --set swap_homes=true --out runs/msc"},
     "game",
     1,
     run_options,
     cmd_run},
    {"exact",
     "the exact odds, for games with an exact solver",
     "odds exact GAME [options]",
     "The exact odds of GAME, where the mathematics allows: the same summary.csv and "
     "distributions.csv columns as 'odds run', with method 'exact'. Where part of the "
     "probability is not resolved, the figures are bounds (docs/output.md).",
     {"odds exact bosconian --set layout=4,9,17,22,30 --set start_sector=14",
      "odds exact dimension-duel --policy tau=survivor --policy kaon=dice"},
     "game",
     1,
     exact_options,
     cmd_exact},
    {"state",
     "the opening position of a game, as text to edit and give to --state",
     "odds state GAME [--set NAME=VALUE ...]",
     "Prints the opening position of GAME under the rule options given, in the game's position "
     "format (docs/positions.md; each game's RULES.md, 'Positions'): one record a line, '#' "
     "comments. Edit it to the position at your table and give it to 'odds run GAME --state "
     "FILE' (or 'odds exact GAME --state FILE' where the solver can start from a position) for "
     "the odds from there on; run with the unedited file, they are the odds of a fresh game, "
     "playout for playout. A game without positions is refused, naming the games that have "
     "them.",
     {"odds state dimension-duel > duel.txt",
      "odds run dimension-duel --state duel.txt --policy tau=survivor"},
     "game",
     1,
     state_options,
     cmd_state},
    {"rules",
     "the rule options of a game as a variant file to edit and give to --rules",
     "odds rules GAME [--rules FILE] [--set NAME=VALUE ...]",
     "Prints every rule option of GAME as a commented TOML variant file (docs/variants.md): each "
     "option with its value, what it means and the ruling it implements, grouped by the rule "
     "book's tables. Edit the values and give the file to any command that takes --set with "
     "--rules FILE; --set applies on top of it. With --set (or --rules), the file holds those "
     "values, checked first. Printed unedited and given back, it plays exactly the rule book.",
     {"odds rules bosconian > mine.toml", "odds run bosconian --rules mine.toml --set hull=120"},
     "game",
     1,
     rules_options,
     cmd_rules},
    {"dice",
     "the exact law of dice expressions: each total's probability, at least, at most",
     "odds dice EXPR... [--out DIR]",
     "The exact law of each dice expression (docs/variants.md: NdX, NdX+K, NdX-K and sums such "
     "as 2d6+1d4, any die from d2 to d100): its totals' probabilities, the chance of at least and "
     "at most each, its mean and standard deviation, by convolution. Given two, also the chance "
     "that the first rolls higher: what a rule tweak's dice do, before a full run.",
     {"odds dice 3d6 4d6", "odds dice 2d6+1d4 --out dice"},
     "file",
     -1,
     dice_options,
     cmd_dice},
    {"compare",
     "several policies on the same dice: paired differences, ranked",
     "odds compare GAME --policy A --policy B [--policy C ...] [options]",
     "Plays every policy on the same dice, playout by playout (common random numbers), ranks "
     "them by one metric (--rank-by; default the game's first headline metric), and prints a "
     "table of each policy's metrics (--metrics; default the first four headline metrics) with "
     "95% intervals and its paired difference from the first. With --out DIR: DIR/compare.csv "
     "(for every pair and headline, ranking or table metric: the paired difference with its 95% "
     "interval and p-value), DIR/policies.csv (every policy's mean, interval and standard "
     "deviation of every metric) and each policy's DIR/<policy>/summary.csv. For a two-seat "
     "game, name the seat being compared (--policy tau=aggressor --policy tau=survivor) and fix "
     "the other with --fixed kaon=dice.",
     {"odds compare fpb --policy bug-out --policy lead-from-front --metrics icecube_rescued,killed "
      "-n 20k",
      "odds compare dimension-duel --policy tau=aggressor --policy tau=survivor --fixed kaon=dice"},
     "game",
     1,
     compare_options,
     cmd_compare},
    {"tournament",
     "every ordered pair of policies of a two-seat game, with ratings",
     "odds tournament GAME --policy A --policy B [--policy C ...] [options]",
     "Plays every ordered pair of policies (each in both seats; a policy does not play itself), "
     "every pairing on the same dice, and reports each pairing's win, draw and loss rates with "
     "95% intervals, and a Bradley-Terry rating per policy. With --out DIR: tournament.csv and "
     "ratings.csv.",
     {"odds tournament naval --policy gunner --policy boarder -n 2000",
      "odds tournament msc --policy balanced/strike --policy turtle/strike -n 1000 --out t"},
     "game",
     1,
     tournament_options,
     cmd_tournament},
    {"skill",
     "a skill ladder: how far search climbs, the game's depth and its luck share",
     "odds skill GAME --policy A --policy B [...] [--search SPELL --budgets LO..HI] [options]",
     "Plays a ladder of policies on the same dice: the --policy rungs as given (rules of thumb, "
     "random, the solved policy; weakest first) and the search policy at doubling budgets. A "
     "two-seat game plays every ordered pairing, -n games each; a solo game plays each rung "
     "-n games. Prints each rung's strength (a two-seat game's Bradley-Terry rating, a solo "
     "game's metric) with its 95% interval, the depth (the steps between neighbours in strength "
     "told apart at 95%) and the luck share: the part of the outcome's variance that lies within "
     "a pairing or rung (the dice) rather than between them (the policies), with a 95% bootstrap "
     "interval (docs/skill.md). --out DIR writes ladder.csv and skill.csv.",
     {"odds skill naval --policy random --policy gunner --policy boarder --budgets 16..64 -n 40",
      "odds skill fpb --policy bug-out --policy lead-from-front --search "
      "mcts:{n}:rollout=lead-from-front --budgets 16..128 -n 1000"},
     "game",
     1,
     skill_options,
     cmd_skill},
    {"shape",
     "the shape of a game along its length: lead changes, drama, decisiveness, comebacks",
     "odds shape GAME [--policy SEAT=NAME ...] [options]",
     "Samples -n games and follows each step by step (a turn; a sector of Bosconian-D) with the "
     "odds of seat 0 to win (a solo game: to succeed) from there: exact where the game's solver "
     "gives them (Dimension Duel, Bosconian-D, race), else estimated by --rollouts games played "
     "on by the seats' own policies. Reports, averaged over the games, the measures Ludii "
     "defines on such a sequence (lead changes, drama, decisiveness) and the comeback rate, how "
     "often the side behind at half-time wins; for a solo game, the point of no return, the step "
     "from which the outcome was known to 95% (docs/skill.md). Games play on every thread and "
     "shard like a run's (--shard, odds merge, mpirun); the figures are the same for any "
     "--threads and any shards. --out DIR writes shape.csv and fan.csv (p's "
     "quantiles by step); --report draws the fan.",
     {"odds shape dimension-duel", "odds shape naval -n 200 --rollouts 32 --out shape --report"},
     "game",
     1,
     shape_options,
     cmd_shape},
    {"restrict",
     "what each rule element is worth: restricted play, ranked by what it costs",
     "odds restrict GAME [--restrict VALUE ...] [--seat SEAT|both] [--play PLAY] [options]",
     "Restricted play (Jaffe et al., AIIDE 2012): each restriction the game offers (a value of "
     "its rule option restrict or restrict.SEAT; by default each of its words alone) is played "
     "with the best available play on the same dice as the unrestricted game, and ranked by what "
     "it costs the restricted seat's score (a win 1, a draw 1/2) or a solo game's metric: the "
     "mean paired difference with its 95% interval. A restriction whose interval holds 0 is "
     "flagged: a rule a player can ignore. --exact takes the values from the game's solver "
     "(Dimension Duel, --play equilibrium by default). --out DIR writes restrict.csv "
     "(docs/skill.md).",
     {"odds restrict dimension-duel --exact", "odds restrict fpb --play thumbs -n 2000"},
     "game",
     1,
     restrict_options,
     cmd_restrict},
    {"sweep",
     "every combination of varied rule options, with common random numbers",
     "odds sweep GAME --vary NAME=VALUES [--vary ...] [options]",
     "Plays every combination of the varied rule options with the same seed (common random "
     "numbers), and writes one row per (values, metric) into DIR/sweep.csv: mean, standard "
     "deviation and 95% interval. A table of the game's headline metrics goes to stdout.\n\n"
     "An option named in several --vary takes the values of each. An option whose value is "
     "itself a comma list (bosconian's layout, msc's map) takes one value per --vary, at least "
     "two: --vary layout=4,9 --vary layout=4,9,15 (a single --vary layout=4,9 is ambiguous and "
     "refused).",
     {"odds sweep bosconian --vary hull=80..160:10 -n 1M",
      "odds sweep msc --vary budget=300,525,800 --vary escorts_a=0,25,50 -n 1000"},
     "game",
     1,
     sweep_options,
     cmd_sweep},
    {"tune",
     "search rule options for the setting that meets one or more targets",
     "odds tune GAME --vary NAME=VALUES [--vary ...] --target GOAL [--target ...] [options]",
     "Searches the varied rule options for the setting that best meets the targets: "
     "METRIC=VALUE, 'METRIC within LO..HI', 'METRIC max' or 'METRIC min', each with an optional "
     "@WEIGHT, combined as the weighted sum of their distances. One option and one value: "
     "bisection, assuming the metric moves monotonically with the option. Otherwise, up to 4096 "
     "settings: successive halving, each round on the same dice (common random numbers), the "
     "better half kept with twice the playouts, --playouts the last round's; beyond, or with "
     "--search ntbea: NTBEA (N-tuple bandit evolutionary algorithm, as TAG runs it). With "
     "several targets (or after NTBEA) the best --finalists are confirmed on fresh dice. Where "
     "the game's exact solver resolves a setting, its exact value is used (--no-exact: play "
     "it). Prints the path and the best setting with its 95% interval; --out DIR writes "
     "DIR/tune.csv and DIR/best.toml (the best setting's variant file).\n\n"
     "Under mpirun every rank runs the same search and plays a share of each evaluation's "
     "playouts, which every rank then adds up: the output is one process's, byte for byte "
     "(docs/cluster.md). --shard and odds merge are refused: which setting the search plays next "
     "depends on what it has played, so its work cannot be declared as shards before it plays.",
     {"odds tune bosconian --vary hull=100..400 --target win=0.25",
      "odds tune bosconian --vary hull=200..300:10 --vary 'bases=2d6|1d6+3' --target win=0.333 "
      "--target 'sectors_entered within 12..' --no-exact"},
     "game",
     1,
     tune_options,
     cmd_tune},
    {"baseline",
     "record a scenario's headline metrics, to check later",
     "odds baseline GAME [options] --out FILE",
     "Plays a scenario and records it in FILE: the game, its options and policies, the seed, the "
     "playouts, the rules version of this build, and each headline metric with its 95% interval "
     "and its exact counts. 'odds check FILE' re-runs it later.",
     {"odds baseline bosconian --playouts 1M --out balance/bosconian.baseline",
      "odds baseline msc --policy turtle/strike -n 2000 --out balance/msc.baseline"},
     "game",
     1,
     baseline_options,
     cmd_baseline},
    {"check",
     "re-run baselines: has the balance moved?",
     "odds check FILE... [options]",
     "Re-runs each baseline and says whether the balance moved. With the baseline's rules "
     "version, seed and playouts (and no --set), every count must match exactly: any difference "
     "means the kernel plays differently. Otherwise each headline metric is tested for a shift "
     "of its mean, at a false-alarm rate of 1e-3 per metric divided by the number of metrics.\n\n"
     "--tolerance METRIC=X: a change of at most X in METRIC's mean is not an alarm. In "
     "statistical mode the metric is MOVED only when its shift exceeds X by more than the alarm "
     "threshold (the test rejects |true shift| <= X); a smaller shift the plain test would flag "
     "is 'tolerated'. In exact mode, counts that differ with the mean moved by at most X are "
     "'tolerated'. Tolerated metrics pass.\n\n"
     "--sequential: each metric is tested sequentially (GSPRT, as fishtest does) for "
     "'unchanged' against 'moved by at least its tolerance' (--tolerance, the baseline's "
     "tolerance record, else the shift a fixed test of the baseline's size detects), playing in "
     "batches until every metric is decided or --max-playouts is reached. A targets file "
     "(odds-targets 1; docs/ci.md) states what balance means, 'target advantage_first within "
     "0.47..0.53', and is always checked sequentially.\n\n"
     "--shard I/N plays one share of the fixed checks' playouts and 'odds merge' adds the "
     "shares up to the verdicts one process gives, byte for byte (docs/cluster.md).\n\n"
     "--junit FILE and --json FILE also write the verdicts for CI, beside the table. "
     "Exit 0: unchanged, tolerated or met; 1: moved or a target missed; 2: bad input; 3: a "
     "sequential check inconclusive at its cap.",
     {"odds check balance/*.baseline --junit reports/balance.xml",
      "odds check balance/bosconian.baseline --set hull=95 --tolerance win=0.005"},
     "file",
     -1,
     check_options,
     cmd_check},
    {"report",
     "the HTML report of a folder of CSV files odds wrote",
     "odds report DIR",
     "Writes DIR/report.html from the CSV files that odds run, exact, compare, tournament, sweep "
     "or check wrote into DIR with --out: one self-contained page (no network, no script) with "
     "each figure as a chart, its numbers in a table under it, and the scenario, policies, seed, "
     "playouts, rules version and command line that made them (docs/output.md). --report on "
     "those commands writes the same page.",
     {"odds report runs/bosconian", "odds run bosconian --out runs/bosconian --report"},
     "file",
     1,
     no_options,
     cmd_report},
    {"merge",
     "add up the shards of a command played with --shard I/N",
     "odds merge DIR... [--out DIR]",
     "Reads the shard files (shard-I-of-N.odds) in each DIR (or each shard file given), checks "
     "that they are shards of one command (the same command, game, scenario, policies, options, "
     "rules version and seed) whose chunks tile its work exactly, adds their exact counts, and "
     "writes the command's files into --out DIR and its table on stdout: byte for byte what one "
     "process writes with that seed, whatever the number of shards (docs/cluster.md). A "
     "truncated or edited shard, shards of different runs, overlapping or missing chunks: one "
     "line naming them, exit 2.",
     {"odds merge shards/ --out runs/bosconian",
      "odds merge host1/shards host2/shards --out runs/tournament"},
     "dir",
     -1,
     merge_options,
     cmd_merge},
    {"version",
     "the version, each game's rules version, and the build",
     "odds version",
     "The version of odds, the rules version of each game (a baseline records it: 'odds check' "
     "compares counts exactly only within one rules version), and how this binary was built. "
     "'odds --version' says the same.",
     {"odds version", "odds --version"},
     "none",
     0,
     no_options,
     cmd_version},
    {"completion",
     "a shell completion script (bash or zsh)",
     "odds completion bash|zsh",
     "Prints a completion script for bash or zsh, made from odds's own declarations: commands, "
     "options, games, policies and rule options. The Debian package installs both.",
     {"source <(odds completion bash)", "odds completion zsh > ~/.zfunc/_odds"},
     "game",
     1,
     completion_options,
     cmd_completion},
    {"man",
     "the manual page, in roff",
     "odds man",
     "Prints odds's manual page (roff), made from the same declarations as --help. The Debian "
     "package installs it as odds(1).",
     {"odds man | man -l -", "odds man > odds.1"},
     "none",
     0,
     no_options,
     cmd_man},
};

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

std::string join(const std::vector<std::string>& v, const char* sep = " ") {
    std::string out;
    for (const auto& s : v) out += (out.empty() ? "" : sep) + s;
    return out;
}

}  // namespace

std::span<const CommandSpec> commands() { return kCommands; }

const CommandSpec& find_command(std::string_view name) {
    for (const auto& c : kCommands)
        if (c.name == name) return c;
    std::vector<std::string> names;
    for (const auto& c : kCommands) names.emplace_back(c.name);
    throw UsageError("unknown command '" + std::string(name) + "'" + did_you_mean(name, names) +
                     " (valid: " + join(names, ", ") + "; see odds --help)");
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
    for (const auto& c : kCommands) wide = std::max(wide, c.name.size());
    for (const auto& c : kCommands)
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
    for (const auto& c : kCommands) command_names.emplace_back(c.name);
    for (const auto& g : games()) game_names.emplace_back(g.name);
    o << "# bash completion for odds, made by 'odds completion bash' from odds's own "
         "declarations.\n"
      << "_odds() {\n"
      << "  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} "
         "cmd=${COMP_WORDS[1]} game=\"\" i\n"
      << "  for ((i = 2; i < COMP_CWORD; i++)); do\n"
      << "    case ${COMP_WORDS[i]} in " << join(game_names, "|")
      << ") game=${COMP_WORDS[i]} ;; esac\n"
      << "  done\n"
      << "  if ((COMP_CWORD == 1)); then COMPREPLY=($(compgen -W \"" << join(command_names)
      << " --help --version\" -- \"$cur\")); return; fi\n"
      << "  case $prev in\n"
      << "    --out|-o|--state) COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n"
      << "    --policy|-p|--fixed)\n      case $game in\n";
    for (const auto& g : games()) {
        std::vector<std::string> names;
        for (const auto& p : g.policies) names.emplace_back(p.name);
        o << "        " << g.name << ") COMPREPLY=($(compgen -W \"" << join(names)
          << "\" -- \"$cur\")) ;;\n";
    }
    o << "      esac; return ;;\n    --set|--vary)\n      case $game in\n";
    for (const auto& g : games()) {
        std::vector<std::string> names;
        for (const auto& opt : g.options) names.push_back(std::string(opt.name) + "=");
        o << "        " << g.name << ") compopt -o nospace 2>/dev/null; COMPREPLY=($(compgen -W \""
          << join(names) << "\" -- \"$cur\")) ;;\n";
    }
    o << "      esac; return ;;\n  esac\n  case $cmd in\n";
    for (const auto& c : kCommands) {
        const auto names = long_names(options_of(c));
        o << "    " << c.name << ")\n      if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W \""
          << join(names) << "\" -- \"$cur\"))\n";
        if (std::string_view(c.positional) == "game")
            o << "      elif [[ -z $game ]]; then COMPREPLY=($(compgen -W \""
              << (c.name == "completion" ? std::string("bash zsh") : join(game_names))
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
    for (const auto& c : kCommands) {  // single-quoted: a quote in the summary as '\''
        std::string summary;
        for (char ch : c.summary) summary += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
        o << "    '" << c.name << ":" << summary << "'\n";
    }
    o << "  )\n  games=(";
    for (const auto& g : games()) o << ' ' << g.name;
    o << " )\n  if (( CURRENT == 2 )); then _describe command commands; return; fi\n"
      << "  local game=${words[(r)(";
    std::vector<std::string> gn;
    for (const auto& g : games()) gn.emplace_back(g.name);
    o << join(gn, "|") << ")]}\n  case ${words[CURRENT-1]} in\n"
      << "    --out|-o|--state) _files; return ;;\n    --policy|-p|--fixed)\n      case $game in\n";
    for (const auto& g : games()) {
        o << "        " << g.name << ") compadd --";
        for (const auto& p : g.policies) o << ' ' << p.name;
        o << " ;;\n";
    }
    o << "      esac; return ;;\n    --set|--vary)\n      case $game in\n";
    for (const auto& g : games()) {
        o << "        " << g.name << ") compadd -S '' --";
        for (const auto& opt : g.options) o << ' ' << opt.name << '=';
        o << " ;;\n";
    }
    o << "      esac; return ;;\n  esac\n  case ${words[2]} in\n";
    for (const auto& c : kCommands) {
        o << "    " << c.name << ")\n      if [[ ${words[CURRENT]} == -* ]]; then compadd --";
        for (const auto& n : long_names(options_of(c))) o << ' ' << n;
        o << "\n";
        if (std::string_view(c.positional) == "game")
            o << "      elif [[ -z $game ]]; then compadd -- "
              << (c.name == "completion" ? std::string("bash zsh") : join(gn)) << "\n";
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
    for (const auto& c : kCommands) {
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
    for (const auto& g : games()) {
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
