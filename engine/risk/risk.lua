-- Risk: one battle, as a game script for odds (docs/scripting.md).
--
-- The classic battle. The attacker's territory holds `attackers` armies, one of which must stay
-- behind; the defender's holds `defenders`. Each round the attacker decides to attack or to
-- stop. An attack rolls up to `attack_dice` dice (never more than the armies that may leave)
-- against up to `defend_dice` (never more than the defenders). The highest die of each side
-- meet, then the second highest: a tie goes to the defender, and each loser loses one army. The
-- battle ends when the defender has no army left (the territory is conquered), when the
-- attacker has one left, or when the attacker stops.

-- The dice of one side, highest first.
local function throw(roll, n)
  local faces = {}
  for i = 1, n do faces[i] = roll(6) end
  table.sort(faces, function(a, b) return a > b end)
  return faces
end

return {
  name = "risk",
  title = "Risk: one battle",
  summary = "solo: an attacker throws its armies at a territory; attack or stop, round by round",
  version = 1,

  options = {
    {name = "attackers", default = 10, min = 2, max = 1000,
     help = "armies in the attacking territory, one of which stays behind"},
    {name = "defenders", default = 10, min = 1, max = 1000,
     help = "armies in the defending territory"},
    {name = "attack_dice", default = 3, min = 1, max = 3, help = "the most dice an attack rolls"},
    {name = "defend_dice", default = 2, min = 1, max = 2, help = "the most dice a defence rolls"},
  },

  metrics = {
    {name = "conquered", kind = "rate", help = "the defender lost its last army"},
    {name = "attackers_left", lo = 1, hi = "attackers", unit = "armies",
     help = "armies left in the attacking territory"},
    {name = "defenders_left", lo = 0, hi = "defenders", unit = "armies",
     help = "armies left in the defending territory"},
    {name = "rounds", lo = 0, hi = 2000, unit = "rounds", help = "rounds of dice thrown"},
  },
  headline = {"conquered", "attackers_left"},
  -- odds restrict may bar the attacker's stopping (the option restrict=stop): every policy then
  -- attacks to the end.
  restrict = {"stop"},
  -- odds skill's rungs below search, weakest first.
  ladder = {"random", "cautious", "press"},

  -- The attacker's rules of thumb: the first is the default.
  policies = {
    {name = "press", help = "attack while any army may leave",
     choose = function(s, o, seat, choices) return "attack" end},
    {name = "cautious", help = "attack only while the armies that may leave outnumber the defenders",
     choose = function(s, o, seat, choices)
       if s.attackers - 1 > s.defenders then return "attack" end
       return "stop"
     end},
  },

  opening = function(o)
    return {attackers = o.attackers, defenders = o.defenders, rounds = 0, stopped = false}
  end,

  over = function(s, o)
    return s.stopped or s.defenders == 0 or s.attackers == 1
  end,

  step = function(s, o, roll, choose)
    if choose({"attack", "stop"}) == "stop" then
      s.stopped = true
      return
    end
    local a = throw(roll, math.min(o.attack_dice, s.attackers - 1))
    local d = throw(roll, math.min(o.defend_dice, s.defenders))
    for i = 1, math.min(#a, #d) do
      if a[i] > d[i] then s.defenders = s.defenders - 1 else s.attackers = s.attackers - 1 end
    end
    s.rounds = s.rounds + 1
  end,

  result = function(s, o)
    return {conquered = s.defenders == 0, attackers_left = s.attackers,
            defenders_left = s.defenders, rounds = s.rounds}
  end,
}
