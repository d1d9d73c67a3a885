-- Dimension Duel as a game script (docs/scripting.md): the rules of RULES.md (D1-D7) and the
-- `dice` rule of thumb, drawing every die in the kernel's order, so that `odds run` of this
-- script writes the kernel's figures byte for byte under the same seed (tests/test_script.cpp).
-- Restricted play (D2b, restrict.*) is the kernel's alone. A designer copies this file to
-- change a structure: a third particle, a fourth decision, another end.

local SEATS = {"tau", "kaon"}
local PARTICLES = {"tau", "kaon"}                  -- D2, step 1: 0 Tau, 1 Kaon
local REGIONS = {"head", "torso", "extremities"}   -- D2, step 2
local FUNCTIONS = {"bluff", "disruptor", "delayed", "deflector", "intensifier",
                   "changer_self", "changer_opponent"}  -- D2, step 3

local function index(list, value)
  for i, v in ipairs(list) do if v == value then return i end end
end

-- D7, D7a: what single_use marks a function used by: the changer's two modes are one function
-- unless changers=separate; Bluff is never used up.
local function use_key(o, f)
  if f == "bluff" then return nil end
  if f == "changer_opponent" and o.changers == "shared" then return "changer_self" end
  return f
end

-- The functions a seat may still play (D7).
local function allowed(s, o, seat)
  local list = {}
  for _, f in ipairs(FUNCTIONS) do
    local key = use_key(o, f)
    if not o.single_use or key == nil or not s.used[seat][key] then list[#list + 1] = f end
  end
  return list
end

-- D2: the function chart's face, the first row that has it (a face in none is a Bluff).
local function function_on(o, face)
  for _, row in ipairs({"disruptor", "delayed", "deflector", "intensifier"}) do
    if o["chart." .. row][face] then return row end
  end
  if o["chart.changer"][face] then return "changer_self" end
  return "bluff"
end

-- The `dice` rule of thumb: every choice rolled on the charts (D2); a function used up rolled
-- again (D7).
local function dice_policy(s, o, seat, choices, roll)
  if choices == PARTICLES then
    return o["chart.tau"][roll(6)] and "tau" or "kaon"
  elseif choices == REGIONS then
    local face = roll(6)
    if o["chart.head"][face] then return "head" end
    if o["chart.torso"][face] then return "torso" end
    return "extremities"
  end
  while true do
    local f = function_on(o, roll(6))
    if f == "changer_self" and not o["chart.changer_self"][roll(6)] then f = "changer_opponent" end
    if index(choices, f) then return f end
  end
end

local function faces(name, default, rule, help)
  return {name = name, type = "faces", default = default, show = "changed", ruling = rule,
          help = help}
end

local game = {
  name = "dimension-duel",
  title = "Dimension Duel (script)",
  summary = "two players: particle rays, shields and secondary functions, to the last hit point",
  version = 1,
  seats = SEATS,
  options = {
    {name = "hp", default = 75, min = 1, max = 1000, ruling = "D1",
     help = "hit points each player starts with"},
    {name = "max_turns", default = 10000, min = 1, max = 1000000, ruling = "D6",
     help = "turns after which the duel is a draw"},
    {name = "single_use", type = "boolean", default = false, ruling = "D7",
     help = "true: each function but Bluff can be used once per game"},
    {name = "changers", type = "choice", words = {"shared", "separate"}, default = "shared",
     ruling = "D7a", help = "under single_use, the changer's two modes are one function or two"},
    faces("chart.tau", "1-3", "D2", "step 1: faces that fire a Tau ray or raise an anti-Tau shield"),
    faces("chart.head", "1-2", "D2", "step 2: faces that choose the head"),
    faces("chart.torso", "3-4", "D2", "step 2: faces that choose the torso"),
    faces("chart.changer_self", "1-3", "D2", "a changer's re-roll: faces for Self"),
    faces("chart.disruptor", "2", "D2", "step 3: faces for the Disruptor"),
    faces("chart.delayed", "3", "D2", "step 3: faces for the Delayed Attack"),
    faces("chart.deflector", "4", "D2", "step 3: faces for the Deflector"),
    faces("chart.intensifier", "5", "D2", "step 3: faces for the Intensifier"),
    faces("chart.changer", "6", "D2", "step 3: faces for a Particle Changer"),
    {name = "calibrate.dice", default = 1, min = 0, max = 3, show = "changed", ruling = "D4",
     help = "dice the attacker gets when the shield does not stop his ray"},
    {name = "focus.dice", default = 1, min = 0, max = 3, show = "changed", ruling = "D4",
     help = "dice the attacker gets when the defender reinforced another region"},
    {name = "delayed.dice", default = 1, min = 0, max = 3, show = "changed", ruling = "D4",
     help = "dice a Delayed Attack gives its player"},
    {name = "damage.die", type = "dice", default = "1d6", show = "changed", ruling = "D4",
     help = "what each die awarded rolls"},
    {name = "intensifier.factor", default = 2, min = 1, max = 10, show = "changed", ruling = "D5",
     help = "each Intensifier multiplies both totals by this"},
  },
  policies = {
    {name = "dice", help = "the rules as written: every choice rolled on the seed's charts",
     choose = dice_policy},
  },
  versus = {"tau_win", "kaon_win", "draw"},
  headline = {"tau_win", "kaon_win", "draw", "turns"},
}

-- The most one turn's dice can take (D4, D5): every die awarded at its top face, two
-- Intensifiers.
local function max_hit(o)
  local factor = o["intensifier.factor"]
  return (o["calibrate.dice"] + o["focus.dice"] + o["delayed.dice"]) *
         dice_max(o["damage.die"]) * factor * factor
end
local function dealt_max(o) return o.hp + max_hit(o) end
local function turns_max(o) return o.max_turns end

game.metrics = {
  {name = "tau_win", kind = "rate", help = "Tau won (D6)"},
  {name = "kaon_win", kind = "rate", help = "Kaon won (D6)"},
  {name = "draw", kind = "rate", help = "both died in one turn, or the turn cap (D6)"},
  {name = "advantage_first", lo = 0, hi = 1, scale = 2, unit = "points",
   help = "Tau's score, 1 a win, 1/2 a draw: P(Tau wins) + P(draw)/2 (Ludii's AdvantageP1)"},
  {name = "turns", lo = 1, hi = turns_max, unit = "turns", help = "turns played (D1)"},
  {name = "winner_hp", lo = 0, hi = "hp", unit = "hit points",
   help = "the winner's hit points at the end (0 for a draw)"},
  {name = "timeouts", kind = "rate", help = "ended as a draw by max_turns (D6)"},
  {name = "drawishness", kind = "rate", help = "a draw before max_turns: both died in one turn (D6)"},
  {name = "tau_dealt", lo = 0, hi = dealt_max, unit = "hit points",
   help = "damage Tau's dice did to Kaon"},
  {name = "kaon_dealt", lo = 0, hi = dealt_max, unit = "hit points",
   help = "damage Kaon's dice did to Tau"},
}
for _, seat in ipairs(SEATS) do
  for _, f in ipairs(FUNCTIONS) do
    game.metrics[#game.metrics + 1] = {name = seat .. "_" .. f, lo = 0, hi = turns_max,
                                       unit = "turns", help = "times " .. seat .. " played " .. f .. " (D2)"}
  end
end

game.opening = function(o)
  local s = {hp = {o.hp, o.hp}, used = {{}, {}}, turn = 0, dealt = {0, 0},
             played = {{}, {}}, winner = 0, timeout = false, over = false}
  for seat = 1, 2 do
    for _, f in ipairs(FUNCTIONS) do s.played[seat][f] = 0 end
  end
  return s
end

game.over = function(s, o) return s.over end

-- One turn (D1-D6): the attacker's and the defender's ray and shield, focus and region, then
-- their functions (D2a), then the dice (D4) and their effects (D3, D5), then the end (D6).
game.step = function(s, o, roll, choose)
  local a = s.turn % 2 == 0 and 1 or 2  -- D1: Tau attacks on odd turns
  local d = 3 - a
  local ray = index(PARTICLES, choose(SEATS[a], PARTICLES)) - 1
  local shield = index(PARTICLES, choose(SEATS[d], PARTICLES)) - 1
  local focus = choose(SEATS[a], REGIONS)
  local region = choose(SEATS[d], REGIONS)
  local fa = choose(SEATS[a], allowed(s, o, a))
  local fd = choose(SEATS[d], allowed(s, o, d))
  s.turn = s.turn + 1
  for _, pair in ipairs({{a, fa}, {d, fd}}) do
    local seat, f = pair[1], pair[2]
    s.played[seat][f] = s.played[seat][f] + 1
    local key = use_key(o, f)
    if key then s.used[seat][key] = true end  -- D7
  end
  -- D3: the changers flip the step-1 particles, cumulatively.
  local function flip(x, yes) if yes then return 1 - x end return x end
  ray = flip(flip(ray, fa == "changer_self"), fd == "changer_opponent")
  shield = flip(flip(shield, fa == "changer_opponent"), fd == "changer_self")
  -- D4: the attacker's dice; the defender's only from his Delayed Attack.
  local att_dice = (ray ~= shield and o["calibrate.dice"] or 0) +
                   (focus ~= region and o["focus.dice"] or 0) +
                   (fa == "delayed" and o["delayed.dice"] or 0)
  local def_dice = fd == "delayed" and o["delayed.dice"] or 0
  -- D5
  local factor = o["intensifier.factor"]
  local multiplier = (fa == "intensifier" and factor or 1) * (fd == "intensifier" and factor or 1)
  local deflectors = (fa == "deflector" and 1 or 0) + (fd == "deflector" and 1 or 0)
  if fa ~= "disruptor" and fd ~= "disruptor" then
    local ta, td = 0, 0  -- the attacker's first
    for _ = 1, att_dice do ta = ta + roll(o["damage.die"]) end
    for _ = 1, def_dice do td = td + roll(o["damage.die"]) end
    ta, td = ta * multiplier, td * multiplier
    if deflectors == 1 then
      s.hp[a], s.hp[d] = s.hp[a] - ta, s.hp[d] - td
    else
      s.hp[d], s.hp[a] = s.hp[d] - ta, s.hp[a] - td
      s.dealt[a], s.dealt[d] = s.dealt[a] + ta, s.dealt[d] + td
    end
  end
  -- D6
  local tau_dead, kaon_dead = s.hp[1] <= 0, s.hp[2] <= 0
  if tau_dead or kaon_dead then
    s.winner = (tau_dead and kaon_dead) and 0 or (tau_dead and 2 or 1)
    s.over = true
  elseif s.turn >= o.max_turns then
    s.timeout = true
    s.over = true
  end
end

game.result = function(s, o)
  local r = {tau_win = s.winner == 1, kaon_win = s.winner == 2, draw = s.winner == 0,
             advantage_first = s.winner == 1 and 1 or (s.winner == 0 and 0.5 or 0),
             turns = s.turn, winner_hp = s.winner == 0 and 0 or s.hp[s.winner],
             timeouts = s.timeout, drawishness = s.winner == 0 and not s.timeout,
             tau_dealt = s.dealt[1], kaon_dealt = s.dealt[2]}
  for seat, name in ipairs(SEATS) do
    for _, f in ipairs(FUNCTIONS) do r[name .. "_" .. f] = s.played[seat][f] end
  end
  return r
end

return game
