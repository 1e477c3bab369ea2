// wake: the OpenCode plugin that 'wake install opencode' writes and
// 'wake uninstall opencode' removes. Edit it and uninstall leaves it.
//
// At start it runs 'wake load --hook opencode', which regenerates the
// boot.md that opencode.json's "instructions" names before OpenCode reads
// it, and adds what the command prints to the agent's system prompt. It
// records the session as it goes (prompts, edited files, commands, the
// last reply) in wake's transcript format, and when the session goes
// idle ('opencode run') or OpenCode exits it runs 'wake handoff --auto',
// which writes a hand-off unless the agent wrote one. Nothing here may break OpenCode:
// every failure is caught and told on stderr.
import { spawnSync } from "node:child_process";
import { closeSync, constants, lstatSync, mkdirSync, openSync, rmSync, statSync, writeSync } from "node:fs";
import { dirname, join, resolve, sep } from "node:path";

const LOAD_TIMEOUT_MS = 30000;
const HANDOFF_TIMEOUT_MS = 60000;

function report(what, err) {
  try {
    const msg = err instanceof Error ? err.message : String(err ?? "");
    process.stderr.write(`wake: opencode plugin: ${what}${msg ? `: ${msg}` : ""}\n`);
  } catch {}
}

// run runs the wake command in dir, synchronously: OpenCode goes on only
// once it is done, so that boot.md is fresh before OpenCode reads it, and
// a hand-off is written before the process exits.
function run(dir, args, input, timeout) {
  return spawnSync("wake", args, { cwd: dir, input, encoding: "utf8", timeout, maxBuffer: 4 << 20 });
}

// ok reports whether the command ran and exited 0, and tells why not.
function ok(args, r) {
  const what = `'wake ${args.join(" ")}'`;
  if (r.error) {
    report(`${what} did not run`, r.error.code === "ENOENT" ? "wake is not on PATH" : r.error);
    return false;
  }
  if (r.status !== 0) {
    report(`${what} ${r.signal ? `was killed by ${r.signal}` : `exited ${r.status}`}`, (r.stderr || "").trim());
    return false;
  }
  return true;
}

// load regenerates boot.md and returns what the agent should get besides
// it: nothing, as a rule, since OpenCode reads boot.md itself, unless
// boot.md could not be written.
function load(dir) {
  const input = JSON.stringify({ cwd: dir, hook_event_name: "SessionStart", source: "startup" });
  const args = ["load", "--hook", "opencode"];
  const r = run(dir, args, input, LOAD_TIMEOUT_MS);
  return ok(args, r) ? (r.stdout || "").trim() : "";
}

// memoryRoot finds the memory root as wake does: $WAKE_ROOT, else the
// nearest .wake directory from dir up.
function memoryRoot(dir) {
  const isDir = (p) => {
    try {
      return statSync(p).isDirectory();
    } catch {
      return false;
    }
  };
  if (process.env.WAKE_ROOT) {
    const root = resolve(dir, process.env.WAKE_ROOT);
    return isDir(root) ? root : null;
  }
  for (let d = resolve(dir); ; d = dirname(d)) {
    if (isDir(join(d, ".wake"))) return join(d, ".wake");
    if (dirname(d) === d) return null;
  }
}

// patchFiles lists the files an apply_patch text adds, updates, moves or
// deletes.
function patchFiles(text) {
  const out = [];
  for (const line of String(text ?? "").split(/\r?\n/)) {
    const m = /^\*\*\* (?:Add File|Update File|Delete File|Move to): (.+)$/.exec(line);
    if (m) out.push(m[1].trim());
  }
  return out;
}

// DECISION is a command that logs a decision: wake decide (reverse,
// contest, uphold) as a command of its own, not its help, not a mention
// of it in a grep or an echo.
const DECISION = /(?:^|&&|;|\|\|)\s*(?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)*wake\s+(?:decide|reverse|contest|uphold)\s+(?!-h\b|--help\b)\S/;

// DECISION_TOOL is wake's MCP tool that records a decision, as OpenCode
// names it.
const DECISION_TOOL = /(?:^|_)wake_(?:decide|contest)$/;

export const WakePlugin = async ({ directory }) => {
  const dir = directory || process.cwd();
  // oneShot: this is 'opencode run', which ends when its session goes
  // idle; the interactive OpenCode goes idle after every turn.
  const oneShot = process.argv.slice(2).find((a) => !a.startsWith("-")) === "run";
  let context = "";
  try {
    context = load(dir);
  } catch (err) {
    report("loading the memory failed", err);
  }
  let root = null;
  try {
    root = memoryRoot(dir);
  } catch (err) {
    report("finding the memory root failed", err);
  }
  const sessions = new Map(); // id -> { file, at, dirty, ok, edits }
  const parents = new Map(); // a subagent's session -> the session it works for
  const replies = new Set(); // ids of the assistant's messages

  function session(id, at) {
    while (parents.has(id)) id = parents.get(id);
    let s = sessions.get(id);
    if (s || !root || !id) return s;
    const stateDir = join(root, ".state");
    // A memory root comes with its repository: a link planted as the
    // root or its state directory must not send the record elsewhere.
    for (const p of [root, stateDir]) {
      if (isLink(p)) {
        report(`not recording the session: ${p} is a symbolic link`);
        return undefined;
      }
    }
    s = { file: join(stateDir, `opencode-${String(id).replace(/[^A-Za-z0-9_.-]/g, "_")}.jsonl`), at: at || new Date().toISOString(), dirty: false, edits: new Set() };
    sessions.set(id, s);
    mkdirSync(stateDir, { recursive: true });
    append(s.file, JSON.stringify({ type: "session", id, at: s.at, cwd: dir }) + "\n");
    return s;
  }

  function isLink(p) {
    try {
      return lstatSync(p).isSymbolicLink();
    } catch {
      return false;
    }
  }

  // append adds text to file, never through a symbolic link.
  function append(file, text) {
    const fd = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_APPEND | constants.O_NOFOLLOW, 0o600);
    try {
      writeSync(fd, text);
    } finally {
      closeSync(fd);
    }
  }

  // record appends entry to the session's transcript with its time, so
  // that wake can tell the work done after a hand-off. An edit is
  // recorded once a turn: a step's patch lists every file it changed.
  function record(id, entry) {
    const s = session(id);
    if (!s) return;
    if (entry.type === "prompt") s.edits.clear();
    if (entry.type === "edit") {
      if (!entry.path || s.edits.has(entry.path)) return;
      s.edits.add(entry.path);
    }
    entry.at = new Date().toISOString();
    append(s.file, JSON.stringify(entry) + "\n");
    s.dirty = true;
  }

  // handoff writes the automatic hand-off of a session that recorded
  // something since the last one; wake skips it when the agent wrote one
  // itself or the session did no work.
  function handoff(id) {
    const s = sessions.get(id);
    if (!s || !s.dirty) return;
    s.dirty = false;
    const args = ["handoff", "--auto", "--transcript", s.file, "--transcript-format", "wake", "--session-start", s.at];
    s.ok = ok(args, run(dir, args, "", HANDOFF_TIMEOUT_MS));
    // A hand-off that failed (a lock held too long, say) is tried again
    // at the next idle or at exit.
    if (!s.ok) s.dirty = true;
  }

  // wakesOwn reports whether path is in the memory root: wake's own file,
  // written by a wake command the agent ran (the ledger, the decision
  // log), by wake's MCP tools or by this plugin (its transcript), never
  // the agent's edit.
  function wakesOwn(path) {
    if (!root || !path) return false;
    const p = resolve(dir, String(path));
    return p === root || p.startsWith(root + sep);
  }

  const guard = (what, fn) => async (...args) => {
    try {
      fn(...args);
    } catch (err) {
      report(what, err);
    }
  };

  return {
    "experimental.chat.system.transform": guard("adding the memory to the system prompt", (_input, output) => {
      // Only the prompts of working agents carry the environment and the
      // instructions; title and summary prompts do not need the memory.
      const system = output?.system;
      if (!Array.isArray(system)) return;
      const text = system.join("\n");
      if (context && (text.includes("<env>") || text.includes("Instructions from: "))) system.push(context);
    }),
    "chat.message": guard("recording a prompt", (input, output) => {
      for (const p of output?.parts || []) {
        if (p?.type === "text" && !p.synthetic && p.text) record(input?.sessionID, { type: "prompt", text: p.text });
      }
    }),
    "tool.execute.after": guard("recording a tool call", (input) => {
      const args = input?.args || {};
      switch (input?.tool) {
        case "write":
        case "edit":
        case "multiedit":
          if (!wakesOwn(args.filePath)) record(input.sessionID, { type: "edit", path: args.filePath, tool: input.tool });
          break;
        case "apply_patch":
        case "patch":
          for (const path of patchFiles(args.patchText)) {
            if (!wakesOwn(path)) record(input.sessionID, { type: "edit", path, tool: input.tool });
          }
          break;
        case "bash":
          if (!args.command) break;
          record(input.sessionID, { type: "command", command: args.command });
          if (DECISION.test(args.command)) record(input.sessionID, { type: "decision" });
          break;
        default:
          // A decision through wake's MCP server is the session's work
          // as the command is: OpenCode names a server's tool
          // SERVER_TOOL ("wake_wake_decide").
          if (DECISION_TOOL.test(String(input?.tool ?? ""))) record(input.sessionID, { type: "decision" });
      }
    }),
    event: guard("recording an event", (input) => {
      const event = input?.event || {};
      const p = event.properties || {};
      switch (event.type) {
        case "session.created":
          if (p.info && p.info.parentID) parents.set(p.info.id, p.info.parentID);
          else if (p.info) session(p.info.id, p.info.time && p.info.time.created ? new Date(p.info.time.created).toISOString() : undefined);
          break;
        case "message.updated":
          if (p.info && p.info.role === "assistant") replies.add(p.info.id);
          break;
        case "message.part.updated": {
          const part = p.part || {};
          if (part.type === "patch") {
            // The files a step changed, whichever tool changed them, but
            // for wake's own: the memory root's (this transcript, boot.md,
            // the ledger and the decision log a wake command wrote).
            for (const path of part.files || []) {
              if (!wakesOwn(path)) record(part.sessionID, { type: "edit", path, tool: "snapshot" });
            }
          } else if (part.type === "text" && part.time && part.time.end && !part.synthetic && replies.has(part.messageID) && part.text) {
            record(part.sessionID, { type: "message", text: part.text });
          }
          break;
        }
        case "session.idle":
          // A subagent going idle is not the end of the session, nor is
          // a turn of the interactive OpenCode: only 'opencode run' ends
          // when it goes idle. Otherwise the hand-off waits for the exit,
          // and covers the whole session.
          if (oneShot && !parents.has(p.sessionID)) handoff(p.sessionID);
          break;
      }
    }),
    dispose: guard("writing the hand-off at exit", () => {
      for (const [id, s] of sessions) {
        handoff(id);
        // The transcript served its purpose once a hand-off ran on it.
        if (s.ok && !s.dirty) rmSync(s.file, { force: true });
      }
    }),
  };
};
