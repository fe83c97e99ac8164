-- nestor-fceux.lua: nestor plays the NES Tetris running in FCEUX (or, in assist mode, you play
-- and nestor outlines where it would lock each piece).
--
-- Use: start the cartridge in FCEUX, then File > Lua > New Lua Script Window, Browse to this
-- file, Run (or: fceux --loadlua lua/nestor-fceux.lua "Tetris (U) [!].nes").
-- It talks to `nestor serve` through two named pipes (nothing to install: plain io.open), and
-- starts nestor itself when it finds it (this repository's target/release/nestor, or `nestor`
-- on PATH); otherwise it prints in FCEUX's Lua console the command to start. The protocol is
-- docs/protocol.md (version 1): other emulators need only the same page of Lua.
--
-- Settings: edit them here, or set the environment variables before starting FCEUX.
local MODE = os.getenv("NESTOR_MODE") or "play" -- "play" or "assist"
local AUTOSTART = os.getenv("NESTOR_AUTOSTART") ~= "0" -- start nestor serve when it is not running
local SHOW_LOCK = os.getenv("NESTOR_SHOW_LOCK") ~= "0" -- outline the planned lock
local SPEED = os.getenv("NESTOR_SPEED") -- e.g. "maximum" (FCEUX's speed modes); unset: as is
-- For tests: after this many frames say bye, write nestor's summary to NESTOR_RESULT, quit.
local STOP_AFTER = tonumber(os.getenv("NESTOR_FRAMES") or "")
local RESULT = os.getenv("NESTOR_RESULT")
-- Record an FCEUX movie (.fm2, from power-on: the console restarts) of the session to this file.
local MOVIE = os.getenv("NESTOR_MOVIE")
-- For tests: the status line as last shown is written to this file when the script stops.
local STATUS_FILE = os.getenv("NESTOR_STATUS")

local PROTOCOL = 1
-- Where `nestor serve` makes its pipes by default (the same rule as nestor's).
local function default_dir()
  local run = os.getenv("XDG_RUNTIME_DIR")
  if run and run ~= "" then return run .. "/nestor" end
  local tmp = os.getenv("TMPDIR")
  if not tmp or tmp == "" then tmp = "/tmp" end
  tmp = tmp:gsub("/$", "")
  return tmp .. "/nestor-" .. (os.getenv("USER") or "user")
end
local DIR = os.getenv("NESTOR_FIFO") or default_dir()

-- Messages go to FCEUX's Lua console, and to NESTOR_LOG when set (FCEUX without a window).
local LOG = os.getenv("NESTOR_LOG")
local function say(text)
  print("nestor: " .. text)
  if LOG then
    local f = io.open(LOG, "a")
    if f then f:write("nestor: ", text, "\n"); f:close() end
  end
end
local function quote(s) return "'" .. s:gsub("'", "'\\''") .. "'" end
local function ran(cmd) -- os.execute's success in Lua 5.1 (a status) and 5.2+ (true)
  local r = os.execute(cmd)
  return r == 0 or r == true
end
local function exists(path) return os.rename(path, path) ~= nil end

-- This file's folder, to find the repository's build.
local here = (debug.getinfo(1, "S").source or ""):match("^@(.*)/[^/]*$") or "."
local repo = here:match("^(.*)/lua$") or (here .. "/..")

local function nestor_binary()
  local built = repo .. "/target/release/nestor"
  if exists(built) then return built end
  if ran("command -v nestor >/dev/null 2>&1") then return "nestor" end
  return nil
end

-- nestor serve's process is alive on DIR (its pid file names a live process).
local function alive()
  local f = io.open(DIR .. "/pid", "r")
  if not f then return false end
  local pid = tonumber(f:read("*l") or "")
  f:close()
  return pid ~= nil and ran("kill -0 " .. pid .. " 2>/dev/null")
end

-- nestor serve waits on DIR: it is alive and its pipes exist (while it serves another
-- emulator it removes them, so that this one waits instead of joining that session).
local function serving()
  return exists(DIR .. "/to-nestor") and exists(DIR .. "/from-nestor") and alive()
end

local started = false
local waited = 0 -- connection attempts since nestor was started here
local function instructions(cmd)
  say("nestor serve is not running. Start it in a terminal:")
  say("  cd " .. quote(repo) .. " && cargo run --release -- " .. cmd)
  say("  (or: nestor " .. cmd .. "); this script connects as soon as it runs.")
end
local function start_nestor()
  local bin = nestor_binary()
  local cmd = "serve --fifo " .. quote(DIR)
  if not bin or not AUTOSTART then
    instructions(cmd)
    return
  end
  local log = DIR .. ".log"
  say("starting " .. bin .. " " .. cmd .. " (log: " .. log .. ")")
  ran(quote(bin) .. " " .. cmd .. " >" .. quote(log) .. " 2>&1 &")
end

-- The connection.
local out, hold, inp -- to nestor, a read end kept on it, from nestor
local ranges = {}
local status = "nestor: looking for nestor serve"
local desyncs = 0 -- nestor's desync notes this session

local function close()
  for _, f in ipairs({ out, hold, inp }) do pcall(function() f:close() end) end
  out, hold, inp = nil, nil, nil
end

local function send(line)
  local ok = out and out:write(line, "\n") and out:flush()
  return ok
end

-- The next line that is not a note (notes are printed); nil when nestor went away.
local function receive()
  local interrupted = 0
  while inp do
    local line, err = inp:read("*l")
    -- A signal during the read (FCEUX at maximum speed gets them) is no end: read again.
    if not line and err and interrupted < 1000 then
      interrupted = interrupted + 1
      if os.getenv("NESTOR_DEBUG") then say("read: " .. tostring(err)) end
    elseif not line then
      return nil
    end
    local note = line and line:match("^note (.*)")
    if note and note:match("^desync") then desyncs = desyncs + 1 end
    if note then say(note) elseif line then return line end
  end
  return nil
end

local busy_said = false
local function connect()
  if not serving() then
    if alive() then
      if not busy_said then say("nestor serve is playing with another emulator; waiting for it") end
      busy_said, started = true, true
      status = "nestor busy with another emulator: waiting"
      return false
    end
    if not started then start_nestor(); started = true
    else
      waited = waited + 1
      -- Started here but still not serving after ~5 attempts: say what to do by hand.
      if waited == 5 and AUTOSTART then
        say("nestor did not start (see " .. DIR .. ".log)")
        instructions("serve --fifo " .. quote(DIR))
      end
    end
    return false
  end
  -- nestor waits on to-nestor first, then from-nestor: open them in that order. The extra
  -- read end on to-nestor keeps a write after nestor died from killing FCEUX with SIGPIPE.
  out = io.open(DIR .. "/to-nestor", "w")
  hold = out and io.open(DIR .. "/to-nestor", "r")
  inp = hold and io.open(DIR .. "/from-nestor", "r")
  if not inp then close(); return false end
  desyncs = 0
  send("hello " .. PROTOCOL .. " fceux " .. MODE)
  local hello = receive()
  if not hello or not hello:match("^hello ") then
    say("nestor refused: " .. tostring(hello))
    close()
    return false
  end
  ranges = {}
  for a, b in hello:match("ranges (.*)$"):gmatch("(%x+)-(%x+)") do
    ranges[#ranges + 1] = { tonumber(a, 16), tonumber(b, 16) - tonumber(a, 16) + 1 }
  end
  say("connected (" .. MODE .. "): " .. hello)
  status = "nestor " .. MODE .. ": connected"
  busy_said = false
  return true
end

local function hexbyte(c) return string.format("%02x", c:byte()) end
local function ram_hex()
  local parts = {}
  for i, r in ipairs(ranges) do
    parts[i] = memory.readbyterange(r[1], r[2]):gsub(".", hexbyte)
  end
  return table.concat(parts)
end

local NAMES = { "right", "left", "down", "up", "start", "select", "B", "A" } -- RLDUTSBA
local pad = {}
local lock = nil

local function parse_pad(line)
  local field, rest = line:match("^pad %d+ (%S+)(.*)$")
  if not field or #field ~= 8 then return false end
  for i = 1, 8 do pad[NAMES[i]] = field:sub(i, i) ~= "." end
  lock = nil
  local cells = rest:match("^ lock (.*)$")
  if cells then
    lock = {}
    for c, r in cells:gmatch("(%-?%d+):(%-?%d+)") do lock[#lock + 1] = { tonumber(c), tonumber(r) } end
  end
  return true
end

local function lost(why)
  say(why .. "; waiting for nestor to come back")
  close()
  status = "nestor: waiting for nestor serve"
  pad, lock = {}, nil
end

local function bye()
  if not out then return nil end
  send("bye")
  local answer = receive()
  close()
  return answer
end
emu.registerexit(function()
  local answer = bye()
  if answer then say(answer) end
end)

-- The game as RAM shows it, for the status line (nes-tetris.md: levelNumber $64, lines $70-$71,
-- currentPiece $62, statsByType $03F0).
local function bcd(b) return math.floor(b / 16) * 10 + b % 16 end
local LETTERS = { "T", "T", "T", "T", "J", "J", "J", "J", "Z", "Z", "O", "S", "S", "L", "L", "L", "L", "I", "I" }
local function game_line()
  if memory.readbyte(0xC0) ~= 4 then return "in the menus" end
  local lines = memory.readbyte(0x71) * 100 + bcd(memory.readbyte(0x70))
  local pieces = 0
  for t = 0, 6 do
    pieces = pieces + bcd(memory.readbyte(0x3F1 + 2 * t)) * 100 + bcd(memory.readbyte(0x3F0 + 2 * t))
  end
  return "level " .. memory.readbyte(0x64) .. "  lines " .. lines .. "  pieces " .. pieces
end
-- Where nestor's plan locks the piece: its letter, leftmost column and lowest row.
local function plan_text()
  if not lock or #lock == 0 then return "" end
  local col, row = 99, -99
  for _, cell in ipairs(lock) do col = math.min(col, cell[1]); row = math.max(row, cell[2]) end
  local letter = LETTERS[memory.readbyte(0x62) + 1] or "?"
  return "  plan " .. letter .. " x" .. col .. " y" .. row
end
local function status_lines()
  if not inp then return { status } end
  return { status .. "  desyncs " .. desyncs, game_line() .. plan_text() }
end

-- The playfield's top-left cell on screen (column 0, row 0) and the cell size, in pixels.
local FIELD_X, FIELD_Y, CELL = 96, 48, 8
local function draw()
  for i, text in ipairs(status_lines()) do gui.text(2, 2 + 9 * i, text) end
  if not (SHOW_LOCK and lock) then return end
  for _, cell in ipairs(lock) do
    local c, r = cell[1], cell[2]
    if r >= 0 then
      local x, y = FIELD_X + CELL * c, FIELD_Y + CELL * r
      gui.box(x, y, x + CELL - 1, y + CELL - 1, "clear", "yellow")
    end
  end
end

if SPEED then emu.speedmode(SPEED) end
if MOVIE then
  -- save_type 0: from power-on (no savestate in the movie), so `nestor replay` can play it.
  if movie.record(MOVIE, 0, "nestor serve") then say("recording " .. MOVIE) else say("cannot record " .. MOVIE) end
end
local last_frame = nil
local stopping = false -- said bye to stop: no reconnecting while FCEUX quits
local sent = 0
local retry = 0
while true do
  if not inp and not stopping then
    retry = retry - 1
    if retry <= 0 then
      retry = 60
      if connect() then last_frame = nil end
    end
  end
  local n = emu.framecount()
  if inp and n ~= last_frame then
    -- FCEUX's first frameadvance returns before a frame ran: send each frame once.
    last_frame = n
    if not send("frame " .. n .. " " .. ram_hex()) then
      lost("nestor went away")
    else
      sent = sent + 1
      local line = receive()
      if not line then
        lost("nestor went away")
      elseif line:match("^error ") then
        lost("nestor: " .. line)
      elseif not parse_pad(line) then
        lost("unexpected answer: " .. line)
      end
    end
  end
  if MODE == "play" and inp then joypad.set(1, pad) end
  draw()
  if STOP_AFTER and sent >= STOP_AFTER then
    STOP_AFTER = nil -- emu.exit() returns: the loop runs on until FCEUX stops
    stopping = true
    if MOVIE then movie.stop() end
    if STATUS_FILE then
      local f = io.open(STATUS_FILE, "w")
      if f then f:write(table.concat(status_lines(), "\n"), "\n"); f:close() end
    end
    local answer = bye() or "no answer"
    say(answer)
    if RESULT then
      local f = io.open(RESULT, "w")
      if f then f:write(answer, "\n"); f:close() end
    end
    emu.exit()
  end
  emu.frameadvance()
end
