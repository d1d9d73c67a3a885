-- Bosconian-D as a game script (docs/scripting.md): the mission of RULES.md (B1-B9), every die
-- drawn in the kernel's order, so that `odds run` of this script writes the kernel's figures
-- byte for byte under the same seed (tests/test_script.cpp). A designer copies this file to
-- change a structure: a base fight that ends at the first hit, a second lap, a new threat.
--
-- What the kernel has and this script leaves out: a fixed layout (`layout` takes `random`
-- only); B5a's faces taken from one encounter by another (each encounter.* set is read as
-- given, a face in two sets going to the first of formation, spy ship and the threats in
-- table order: the same play, but the kernel's scenario also names the set a face was taken
-- from); start_sector's "first" (a sector number here, 2 by default); and B2d's redraw of a
-- gap that lands less than one time in 64 (rolled until it lands, as the kernel rolls on).
-- The same dice when every roll is of d6: a die of other faces is drawn from the generator's
-- raw words, which the kernel, reading d6 faces ahead, reaches in another order.

local THREATS = {"i_missile", "cosmo_mine", "p_missile", "asteroid"}  -- B5, tables 1-4

local function faces(name, default, rule, help)
  return {name = name, type = "faces", default = default, show = "changed", ruling = rule,
          help = help}
end
local function dice(name, default, rule, help)
  return {name = name, type = "dice", default = default, show = "changed", ruling = rule,
          help = help}
end

local options = {
  {name = "sectors", default = 36, min = 1, max = 64, ruling = "B1", help = "sectors in the quadrant"},
  {name = "bases", type = "dice", default = "2d6", ruling = "B2",
   help = "how many bases: dice rolled before placement; at most sectors"},
  dice("placement.gap", "1d6", "B2, B2c", "the sectors counted on from the last base to place the next"),
  {name = "layout", type = "choice", words = {"random"}, default = "random", ruling = "B2",
   help = "base sectors: random (the kernel also takes a map already rolled)"},
  {name = "hull", default = 100, min = 1, max = 10000, ruling = "B3", help = "damage that destroys the ship"},
  {name = "base_cannons", default = 6, min = 1, max = 20, ruling = "B8", help = "cannons on each base"},
  {name = "start_damage", default = 0, min = 0, max = 9999, ruling = "B3",
   help = "damage the ship has already taken (less than hull)"},
  {name = "start_sector", default = 2, min = 1, max = 64, ruling = "B3",
   help = "the next sector the ship enters, in the lap order; bases earlier in the lap count destroyed"},
  {name = "start_alert", default = 0, min = 0, max = 1000, ruling = "B3, B6",
   help = "alerted sectors still to come"},
  {name = "start_encounter", type = "boolean", default = false, ruling = "B1",
   help = "true: the start sector is resolved first, not last"},
}
local encounter_faces = {i_missile = "1", cosmo_mine = "2", p_missile = "3", asteroid = "4",
                         formation = "5", spy_ship = "6"}
for _, key in ipairs({"i_missile", "cosmo_mine", "p_missile", "asteroid", "formation", "spy_ship"}) do
  options[#options + 1] = faces("encounter." .. key, encounter_faces[key], "B5, B5a",
                                "the faces of the encounter d6 that give this encounter")
end
local threat_book = {i_missile = {"1,3,4,6", "2d6"}, cosmo_mine = {"2-5", "4d6"},
                     p_missile = {"1,2,5,6", "3d6"}, asteroid = {"2,4,6", "1d6"}}
for _, key in ipairs(THREATS) do
  options[#options + 1] = faces(key .. ".destroyed_on", threat_book[key][1], "B5",
                                "the faces of the threat's d6 that destroy it")
  options[#options + 1] = dice(key .. ".damage", threat_book[key][2], "B5",
                               "the damage of the threat when it is not destroyed")
end
for _, o in ipairs({
  {name = "formation.missiles", default = 5, min = 1, max = 20, show = "changed", ruling = "B7",
   help = "encounter table 5: the missiles of a formation attack"},
  faces("formation.i_type", "1-3", "B7", "the type d6's faces for I-type missiles"),
  faces("formation.leader_rerolled_on", "6", "B7, B7a", "the leader's number's faces rolled again"),
  faces("spy_ship.destroyed_on", "3-4", "B5", "the faces of the spy ship's d6 that destroy it"),
  dice("spy_ship.alert", "1d6", "B5, B6", "the sectors of alert a spy ship that escapes adds"),
  {name = "alert.encounters", default = 2, min = 1, max = 6, show = "changed", ruling = "B6",
   help = "the encounters of an alerted sector that holds no base"},
  faces("base_combat.cannon_destroyed_on", "1,3,5", "B8, B8a", "the round's faces that destroy a cannon"),
  faces("base_attack.e_missile_on", "1,3,5", "B8", "the attack d6's faces for an E-type missile"),
  faces("e_missile.destroyed_on", "3-4", "B8", "the faces of the E-type missile's d6 that destroy it"),
  dice("e_missile.damage", "4d6", "B8", "the damage of an E-type missile that is not destroyed"),
  dice("cannon_fire.shots", "1d6", "B8", "the shots each active cannon fires (a roll each)"),
  dice("cannon_fire.evaded", "1d6", "B8", "the shots the ship evades, a roll for each cannon fired"),
}) do options[#options + 1] = o end

-- B1: the sector at lap position pos (0-based): 2, 3, ..., N, then 1, unless the lap starts at 1.
local function sector_at(o, pos)
  if o.start_encounter then return pos + 1 end
  return pos == o.sectors - 1 and 1 or pos + 2
end
local function lap_position(o, sector)
  if o.start_encounter then return sector - 1 end
  return sector == 1 and o.sectors - 1 or sector - 2
end

-- B2: the random layout. From the last base (sector 1 at first) a gap is counted on, past the
-- last sector to sector 1; an occupied sector is rolled again; when every sector the gap
-- reaches is occupied (B2c), the base goes to the first free one after them, unrolled (B2a).
local function place_bases(o, roll)
  local placed, last = {}, 1
  local gap = o["placement.gap"]
  local lo, hi = dice_min(gap), dice_max(gap)
  local function ahead(k) return (last + k - 1) % o.sectors + 1 end
  for _ = 1, roll(o.bases) do
    local room = false
    for k = lo, hi do room = room or not placed[ahead(k)] end
    local target
    if room then
      repeat target = ahead(roll(gap)) until not placed[target]
    else
      local k = hi + 1
      while placed[ahead(k)] do k = k + 1 end
      target = ahead(k)
    end
    placed[target], last = true, target
  end
  return placed
end

-- B7: a formation attack: the type die, the leader's number (rolled again on its faces), then
-- each fight: the targeting die while the leader and another remain, the missile's die, and its
-- damage when it hits. The attack ends with the ship (B3), the leader destroyed, or no missile.
local function formation(s, o, roll)
  local kind = o["formation.i_type"][roll(6)] and "i_missile" or "p_missile"
  local leader_number
  repeat leader_number = roll(6) until not o["formation.leader_rerolled_on"][leader_number]
  local leader, others = 1, o["formation.missiles"] - 1
  while leader + others > 0 do
    local at_leader
    if leader == 1 and others > 0 then at_leader = roll(6) == leader_number else at_leader = leader == 1 end
    local destroyed = o[kind .. ".destroyed_on"][roll(6)]
    if not destroyed then s.damage = s.damage + roll(o[kind .. ".damage"]) end
    if at_leader then leader = 0 else others = others - 1 end
    if s.damage >= o.hull or (at_leader and destroyed) then return end
  end
end

-- B5: one roll of the encounter table: a threat's d6 against it, unless destroyed its damage;
-- a spy ship that escapes adds its roll to the alert (B6); a face of no encounter is quiet (B5a).
local function encounter(s, o, roll)
  s.encounters = s.encounters + 1
  local e = roll(6)
  if o["encounter.formation"][e] then return formation(s, o, roll) end
  local spy = o["encounter.spy_ship"][e]
  local threat
  for _, key in ipairs(THREATS) do
    if not threat and o["encounter." .. key][e] then threat = key end
  end
  if not spy and not threat then return end
  local d = roll(6)
  if spy then
    if not o["spy_ship.destroyed_on"][d] then
      s.alert = s.alert + roll(o["spy_ship.alert"])
      s.alerts = s.alerts + 1
    end
  elseif not o[threat .. ".destroyed_on"][d] then
    s.damage = s.damage + roll(o[threat .. ".damage"])
  end
end

-- B8: base combat, round by round: the combat die (a cannon destroyed), else the attack die: an
-- E-type missile (its die, then its damage) or every active cannon's shots, then each one's
-- evasions. Returns true when the base is destroyed.
local function base_combat(s, o, roll)
  local cannons = o.base_cannons
  while true do
    if o["base_combat.cannon_destroyed_on"][roll(6)] then
      cannons = cannons - 1
      if cannons == 0 then return true end
    else
      if o["base_attack.e_missile_on"][roll(6)] then
        if not o["e_missile.destroyed_on"][roll(6)] then
          s.damage = s.damage + roll(o["e_missile.damage"])
        end
      else
        local shots, evaded = 0, 0
        for _ = 1, cannons do shots = shots + roll(o["cannon_fire.shots"]) end
        for _ = 1, cannons do evaded = evaded + roll(o["cannon_fire.evaded"]) end
        s.damage = s.damage + math.max(shots - evaded, 0)
      end
      if s.damage >= o.hull then return false end  -- B3
    end
  end
end

local function rolls(o) return o["alert.encounters"] * o.sectors end

return {
  name = "bosconian",
  title = "Bosconian-D (script)",
  summary = "solo: a Bosconian-D mission, one lap of the quadrant's sectors against its bases",
  version = 1,
  -- Its layouts alone are billions: odds exact is the kernel's (a Markov chain over sectors).
  exact = false,
  options = options,
  metrics = {
    {name = "win", kind = "rate", help = "the mission succeeded: every base destroyed (B9)"},
    {name = "damage", lo = 0, hi = "hull", unit = "hull points",
     help = "the ship's damage at the end, capped at the hull (B3)"},
    {name = "sectors_entered", lo = 0, hi = "sectors", unit = "sectors",
     help = "sectors entered during the mission (B1)"},
    {name = "bases_placed", lo = 0, hi = "sectors", unit = "bases", help = "bases in the layout (B2)"},
    {name = "bases_destroyed", lo = 0, hi = "sectors", unit = "bases",
     help = "bases destroyed during the mission (B8)"},
    {name = "encounters", lo = 0, hi = rolls, unit = "encounter rolls",
     help = "encounter-table rolls resolved (B5)"},
    {name = "alerts", lo = 0, hi = rolls, unit = "spy ships",
     help = "spy ships that escaped and raised the alert (B6)"},
  },
  headline = {"win", "damage", "sectors_entered", "bases_destroyed"},
  policies = {{name = "rules", help = "the rules as written (Bosconian-D has no player decisions)",
               choose = function() end}},

  opening = function(o)
    if o.start_damage >= o.hull then error("start_damage must be less than hull") end
    if o.start_sector > o.sectors then error("start_sector must be at most sectors") end
    if dice_max(o.bases) > o.sectors then error("bases may roll more than sectors (B2b)") end
    return {damage = o.start_damage, alert = o.start_alert, bases = nil, left = 0,
            pos = lap_position(o, o.start_sector), placed = 0, destroyed = 0, entered = 0,
            encounters = 0, alerts = 0}
  end,

  over = function(s, o)
    return s.bases ~= nil and (s.left == 0 or s.damage >= o.hull or s.pos >= o.sectors)
  end,

  -- The first step rolls the layout (B2) and counts the bases behind the start as destroyed
  -- (B3, B3a); each step after it enters one sector (B4, B6).
  step = function(s, o, roll)
    if s.bases == nil then
      s.bases = place_bases(o, roll)
      for sector in pairs(s.bases) do
        s.placed = s.placed + 1
        if lap_position(o, sector) >= s.pos then s.left = s.left + 1 else s.bases[sector] = nil end
      end
      return
    end
    local here = sector_at(o, s.pos)
    s.pos, s.entered = s.pos + 1, s.entered + 1
    local alerted = s.alert > 0  -- B6: entering any sector spends one alerted sector
    if alerted then s.alert = s.alert - 1 end
    if s.bases[here] then  -- B4: a base, and nothing else
      if base_combat(s, o, roll) then
        s.bases[here], s.left, s.destroyed = nil, s.left - 1, s.destroyed + 1
      end
    else  -- B4, B6: one encounter, alert.encounters when alerted
      encounter(s, o, roll)
      for _ = 2, alerted and o["alert.encounters"] or 1 do
        if s.damage >= o.hull then break end
        encounter(s, o, roll)
      end
    end
  end,

  result = function(s, o)
    return {win = s.left == 0 and s.damage < o.hull, damage = math.min(s.damage, o.hull),
            sectors_entered = s.entered, bases_placed = s.placed, bases_destroyed = s.destroyed,
            encounters = s.encounters, alerts = s.alerts}
  end,
}
