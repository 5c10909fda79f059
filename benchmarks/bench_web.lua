-- wrk script of benchmarks/bench_web.py: one wrk thread per table, one connection per thread.
--
-- Environment: BENCH_DIR holds thread-<n>.lua (n from 1), each returning what that thread's
-- table does; BENCH_MODE is "get" (reload one page over and over) or "tables" (enter deals in
-- order, follow each save's redirect, reload the game page); BENCH_OUT is the file done() writes.
-- A "get" plan with an etag sends it as If-None-Match (a phone reloading a page it has).
-- With BENCH_THINK_MS, a table waits that long on average (uniformly from half to one and a
-- half times) before each save, and a "get" connection before every third request: the tables
-- then keep a pace instead of sending their next request as soon as an answer arrives. Paced
-- requests are timed here too.
--
-- In "tables" mode each request is timed here (wrk's own figures mix the three kinds), with the
-- monotonic clock through LuaJIT's FFI. The state moves on only when a response arrives, so a
-- request that wrk sends again after a reconnect is the same request: a deal save repeated
-- with its one-time token records nothing twice.

local ffi = require("ffi")
ffi.cdef [[
typedef struct { long tv_sec; long tv_nsec; } bench_timespec;
int clock_gettime(int clock_id, bench_timespec *tp);
]]
local clock = ffi.new("bench_timespec")
local function now_us()
  ffi.C.clock_gettime(1, clock) -- CLOCK_MONOTONIC
  return tonumber(clock.tv_sec) * 1000000 + tonumber(clock.tv_nsec) / 1000
end

local mode = os.getenv("BENCH_MODE") or "get"
local think = tonumber(os.getenv("BENCH_THINK_MS") or "0")

-- main state: number the threads, gather their figures at the end ----------------------------
local threads = {}

function setup(thread)
  table.insert(threads, thread)
  thread:set("id", #threads)
end

local function write_figures(summary, latency)
  local out = assert(io.open(os.getenv("BENCH_OUT"), "w"))
  local e = summary.errors
  out:write(string.format(
    '{"duration_us": %d, "requests": %d, "errors": {"connect": %d, "read": %d, "write": %d, '
    .. '"status": %d, "timeout": %d}, "latency_us": {"p50": %d, "p90": %d, "p99": %d, '
    .. '"max": %d, "mean": %.1f}, "samples": [', summary.duration, summary.requests,
    e.connect, e.read, e.write, e.status, e.timeout, latency:percentile(50),
    latency:percentile(90), latency:percentile(99), latency.max, latency.mean))
  local first = true
  for _, thread in ipairs(threads) do
    local samples = thread:get("samples") or {}
    for i = 1, #samples do
      out:write((first and "" or ","), samples[i])
      first = false
    end
  end
  out:write('], "left": [')
  for i, thread in ipairs(threads) do
    out:write((i > 1 and "," or ""), tostring(thread:get("left") or 0))
  end
  out:write("]}\n")
  out:close()
end

function done(summary, latency, requests)
  write_figures(summary, latency)
end

-- each thread: one table --------------------------------------------------------------------
local plan, fixed, headers
samples, left = {}, 0
local paced = think > 0
-- A paced connection first sends one request that is not counted, then waits a random part
-- of its pace, so that the tables do not all start at the same moment.
local state = paced and "start" or (mode == "get" and "get" or "post")
local step, started, save_started, location, answered = 1, 0, 0, nil, 0
local FORM = "application/x-www-form-urlencoded"

function init(args)
  math.randomseed(id * 7919)
  plan = dofile(os.getenv("BENCH_DIR") .. "/thread-" .. id .. ".lua")
  headers = {["Cookie"] = plan.cookie}
  if plan.etag then -- a conditional reload: the phone has the page of this validator
    headers["If-None-Match"] = plan.etag
  end
  if mode == "get" then
    fixed = wrk.format("GET", plan.path, headers)
  else
    left = #plan.steps
  end
end

local function record(kind, status, micros)
  -- a JSON array per sample: ["kind", status, microseconds]
  samples[#samples + 1] = string.format('["%s",%d,%d]', kind, status, micros)
end

function request()
  started = now_us()
  if mode == "get" then
    return fixed
  end
  local current = plan.steps[step]
  if state == "start" then
    return wrk.format("GET", (current or plan.steps[#plan.steps]).game, headers)
  end
  if current == nil then -- the table has entered every deal it had: it only reloads now
    state = "idle"
    return wrk.format("GET", plan.steps[#plan.steps].game, headers)
  end
  if state == "post" then
    save_started = started
    return wrk.format("POST", current.path,
                      {["Cookie"] = plan.cookie, ["Content-Type"] = FORM}, current.body)
  elseif state == "redirect" then
    return wrk.format("GET", location, headers)
  else -- reload
    return wrk.format("GET", current.game, headers)
  end
end

local function on_response(status, response_headers)
  local finished = now_us()
  local took = finished - started
  answered = answered + 1
  if state == "start" then
    state = mode == "get" and "get" or "post"
  elseif state == "get" then
    record("get", status, took)
  elseif state == "post" then
    record("post", status, took)
    location = response_headers["Location"] or response_headers["location"]
    if status == 303 and location then
      location = location:gsub("^https?://[^/]+", "")
      state = "redirect"
    else -- counted as a failed save; the next deal is tried
      record("save", status, took)
      step, left, state = step + 1, left - 1, "post"
    end
  elseif state == "redirect" then
    record("redirect", status, took)
    record("save", status, finished - save_started)
    state = "reload"
  elseif state == "reload" then
    record("reload", status, took)
    step, left, state = step + 1, left - 1, "post"
  else
    record("idle", status, took)
  end
end

-- Unpaced "get" runs leave the timing to wrk, which then need not hand answers to Lua.
if paced or mode ~= "get" then
  function response(status, response_headers, body)
    on_response(status, response_headers)
  end
end

if paced then
  function delay()
    if answered == 1 then -- after the uncounted first request
      return math.floor(think * math.random())
    end
    local turn = (mode == "get" and answered % 3 == 1)
      or (mode ~= "get" and (state == "post" or state == "idle"))
    return turn and math.floor(think * (0.5 + math.random())) or 0
  end
end
