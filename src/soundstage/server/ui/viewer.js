// The soundstage viewer: runs, a trial's timeline and checks, state diffs, and the comparison of two runs,
// read from the control API. Everything shown was written by agents or scenes: it is put in as text, never
// as markup.
"use strict";

const TOKEN_KEY = "soundstage-admin-token";
const main = () => document.getElementById("main");

// ---- the admin token: given once in the address (#token=...), kept for this tab only ----
(function takeToken() {
  const hash = window.location.hash;
  if (hash.startsWith("#token=")) {
    sessionStorage.setItem(TOKEN_KEY, decodeURIComponent(hash.slice(7).split("&")[0]));
    const rest = hash.includes("&go=") ? decodeURIComponent(hash.split("&go=")[1]) : "#/runs";
    history.replaceState(null, "", window.location.pathname + rest);
  }
})();

class Unauthorized extends Error {}

async function api(path) {
  const token = sessionStorage.getItem(TOKEN_KEY) || "";
  const response = await fetch(path, { headers: token ? { authorization: "Bearer " + token } : {} });
  let body = null;
  try { body = await response.json(); } catch (e) { body = null; }
  if (response.status === 401 || response.status === 403) throw new Unauthorized();
  if (!response.ok) {
    const message = body && body.error ? body.error.message : response.statusText;
    throw new Error(`${path}: ${response.status} ${message}`);
  }
  return body;
}

// ---- building the page: elements from tags, attributes and children (strings become text) ----
function h(tag, attrs, ...children) {
  const svg = ["svg", "rect", "title"].includes(tag);
  const el = svg ? document.createElementNS("http://www.w3.org/2000/svg", tag) : document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key === "class") el.setAttribute("class", value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

const link = (href, text, attrs) => h("a", { href, ...(attrs || {}) }, text);
const enc = encodeURIComponent;
const percent = (rate) => (rate === null || rate === undefined ? "–" : `${Math.round(rate * 100)}%`);
// A trial's score (the weighted share of its checks, 0 to 1) with two places; "–": it has none.
const scored = (score) => (score === null || score === undefined ? "–" : score.toFixed(2));
const badge = (word) => h("span", { class: `badge ${word}` }, word);
const when = (stamp) => (stamp ? stamp.replace("T", " ").slice(0, 19) : "");
const runHref = (id) => `#/run/${enc(id)}`;
const trialHref = (run, scene, trial, seq) =>
  `#/trial/${enc(run)}/${enc(scene)}/${trial}` + (seq ? `/${seq}` : "");

function verdict(check) {
  if (check.passed === true) return "passed";
  return check.passed === null ? "undecided" : "failed";
}

function show(...nodes) {
  main().replaceChildren(h("div", {}, nodes));
}

function askForToken() {
  const input = h("input", { type: "password", id: "token", placeholder: "the admin token", autocomplete: "off" });
  const form = h("form", {
    onsubmit: (event) => {
      event.preventDefault();
      sessionStorage.setItem(TOKEN_KEY, input.value.trim());
      route();
    },
  }, input, " ", h("button", { type: "submit" }, "Open"));
  show(
    h("h1", {}, "The admin token"),
    h("p", {}, "The viewer reads runs through the control API, which needs the admin token ",
      "(the one soundstage printed, or SOUNDSTAGE_ADMIN_TOKEN). It is kept for this tab only."),
    form,
  );
}

// ---- runs ----
function trend(points) {
  // One bar per run, oldest first: its height is the scene's pass@1 in that run.
  const width = 8, gap = 2, height = 22;
  const svg = h("svg", { class: "trend", width: points.length * (width + gap), height, role: "img" });
  points.forEach((point, i) => {
    const rate = point.rate === null ? 0 : point.rate;
    const bar = Math.max(2, Math.round(rate * height));
    svg.append(h("rect", {
      x: i * (width + gap), y: height - bar, width, height: bar, class: rate === 0 ? "zero" : null,
    }, h("title", {}, `${point.run}: ${percent(point.rate)}`)));
  });
  return svg;
}

// The runs list's filters, as GET /v1/runs takes them and the address keeps them (#/runs?scene=...).
const FILTERS = ["scene", "agent", "since", "until"];

function filterBar(all, filters) {
  const choose = (name) => (event) => {
    const next = new URLSearchParams();
    for (const key of FILTERS) {
      const value = key === name ? event.target.value : filters.get(key);
      if (value) next.set(key, value);
    }
    window.location.hash = next.toString() ? `#/runs?${next}` : "#/runs";
  };
  const options = (values) => [...new Set(values)].sort();
  const select = (name, label, values) => h("label", {}, label, " ",
    h("select", { id: `filter-${name}`, onchange: choose(name) },
      h("option", { value: "" }, "all"),
      options([...values, filters.get(name) || []].flat()).map((value) => h("option", { value, selected: value === filters.get(name) }, value))));
  const day = (name, label) => h("label", {}, label, " ",
    h("input", { type: "date", id: `filter-${name}`, value: filters.get(name) || "", onchange: choose(name) }));
  return h("form", { class: "toolbar filters", id: "filters", onsubmit: (event) => event.preventDefault() },
    select("scene", "scene", all.flatMap((run) => run.scenes || [])),
    select("agent", "agent", all.map((run) => run.agent)),
    day("since", "from"), day("until", "to"),
    filters.toString() ? link("#/runs", "show every run", { id: "unfilter" }) : null);
}

async function runsView(query) {
  const filters = new URLSearchParams();
  for (const key of FILTERS) if (query.get(key)) filters.set(key, query.get(key));
  const all = await api("/v1/runs");
  if (!all.length) {
    show(h("h1", {}, "Runs"), h("p", { class: "muted" }, "No runs yet. `soundstage run` or POST /v1/runs makes one."));
    return;
  }
  const runs = filters.toString() ? await api(`/v1/runs?${filters}`) : all;
  const newest = [...runs].reverse();
  const chosen = [];
  const compareButton = h("button", { id: "compare", disabled: true, onclick: () => {
    const [a, b] = [...chosen].sort((x, y) => runs.findIndex((r) => r.id === x) - runs.findIndex((r) => r.id === y));
    window.location.hash = `#/compare/${enc(a)}/${enc(b)}`;
  } }, "Compare the two chosen runs");
  const pick = (id) => (event) => {
    if (event.target.checked) chosen.push(id); else chosen.splice(chosen.indexOf(id), 1);
    while (chosen.length > 2) {
      const dropped = chosen.shift();
      document.querySelector(`input[data-run="${CSS.escape(dropped)}"]`).checked = false;
    }
    compareButton.disabled = chosen.length !== 2;
  };
  const rows = newest.map((run) => {
    const figures = run.scene_figures || [];
    const passed = figures.reduce((n, f) => n + (f.passed || 0), 0);
    const trials = figures.reduce((n, f) => n + (f.trials || 0), 0);
    return h("tr", { "data-run": run.id },
      h("td", {}, h("input", { type: "checkbox", "data-run": run.id, "aria-label": `choose ${run.id}`, onchange: pick(run.id) })),
      h("td", {}, link(runHref(run.id), run.id)),
      h("td", {}, when(run.created)),
      h("td", {}, run.agent),
      h("td", {}, (run.scenes || []).join(", ")),
      h("td", {}, badge(run.status)),
      h("td", { class: "num" }, figures.length ? `${passed}/${trials}` : "–"),
      h("td", {}, figures.map((f) => h("div", {}, `${f.scene}: pass@1 ${percent(f.pass_at_1)}, pass^k ${percent(f.pass_hat_k)}`))),
    );
  });
  // Trends: each scene's pass@1 over the runs that tried it, oldest first.
  const byScene = new Map();
  for (const run of runs) {
    for (const f of run.scene_figures || []) {
      if (f.status !== "graded") continue;
      if (!byScene.has(f.scene)) byScene.set(f.scene, []);
      byScene.get(f.scene).push({ run: run.id, rate: f.pass_at_1 });
    }
  }
  const trends = [...byScene.entries()].map(([scene, points]) => h("tr", { "data-scene": scene },
    h("td", {}, scene),
    h("td", { class: "num" }, points.length),
    h("td", {}, trend(points)),
    h("td", { class: "num" }, percent(points[points.length - 1].rate)),
  ));
  show(
    h("h1", {}, "Runs"),
    filterBar(all, filters),
    h("p", { class: "muted", id: "shown" }, filters.toString() ? `${runs.length} of ${all.length} runs` : `${all.length} runs`),
    h("div", { class: "toolbar" }, compareButton, h("span", { class: "muted" }, "Choose two runs to compare them.")),
    h("table", { id: "runs" },
      h("thead", {}, h("tr", {}, ["", "run", "started (UTC)", "agent", "scenes", "status", "passed", "per scene"].map((t) => h("th", {}, t)))),
      h("tbody", {}, rows)),
    h("h2", {}, "Trends"),
    h("table", { id: "trends" },
      h("thead", {}, h("tr", {}, h("th", {}, "scene"), h("th", { class: "num" }, "runs"), h("th", {}, "pass@1, run by run"), h("th", { class: "num" }, "latest"))),
      h("tbody", {}, trends)),
  );
}

// ---- a run ----
async function runView(id) {
  const run = await api(`/v1/runs/${enc(id)}`);
  const figures = run.scene_figures || [];
  const sceneTables = figures.map((f) => h("div", { class: "card", "data-scene": f.scene },
    h("h2", {}, f.scene, " ", badge(f.status)),
    h("div", { class: "meta" },
      h("span", {}, "trials ", h("b", {}, f.trials)),
      f.invalid ? h("span", {}, "invalid, left out ", h("b", {}, f.invalid)) : null,
      h("span", {}, "passed ", h("b", {}, f.passed === null ? "–" : f.passed)),
      h("span", {}, "pass@1 ", h("b", {}, percent(f.pass_at_1))),
      h("span", {}, `pass@${f.k} `, h("b", {}, percent(f.pass_at_k))),
      h("span", {}, `pass^${f.k} `, h("b", {}, percent(f.pass_hat_k))),
      h("span", {}, "mean score ", h("b", {}, scored(f.mean_score)))),
    f.k > 1 && f.pass_hat ? h("div", { class: "meta estimates" },
      h("span", {}, "estimated from the trials:"),
      Object.keys(f.pass_hat).map((k) => h("span", {}, `pass@${k} `, h("b", {}, percent(f.pass_at[k])), ` pass^${k} `, h("b", {}, percent(f.pass_hat[k]))))) : null,
    h("table", {},
      h("thead", {}, h("tr", {}, h("th", {}, "check"), h("th", {}, "required"), h("th", { class: "num" }, "passed"), h("th", { class: "num" }, "pass rate"))),
      h("tbody", {}, Object.entries(f.checks || {}).map(([check, c]) => h("tr", {},
        h("td", {}, check), h("td", {}, c.required ? "yes" : "no"),
        h("td", { class: "num" }, `${c.passed}/${c.trials}`), h("td", { class: "num" }, percent(c.pass_rate)))))),
  ));
  const trials = (run.results || []).map((t) => {
    const failing = (t.checks || []).filter((c) => c.required && c.passed !== true);
    return h("tr", {},
      h("td", {}, t.scene),
      h("td", {}, link(trialHref(run.id, t.scene, t.trial), `trial ${t.trial}`)),
      h("td", {}, t.outcome ? badge(t.outcome) : badge("running")),
      h("td", { class: "num score" }, scored(t.score)),
      h("td", {}, t.finish_reason || ""),
      h("td", {}, t.sandbox || "–"),
      h("td", {}, failing.map((c) => h("div", {}, link(trialHref(run.id, t.scene, t.trial, c.evidence[0]), c.id), ": ", c.explanation)),
        (t.notes || []).map((note) => h("div", { class: "warning" }, note))),
    );
  });
  show(
    h("h1", {}, `Run ${run.id} `, badge(run.status)),
    h("div", { class: "meta" },
      h("span", {}, "agent ", h("b", {}, run.agent)),
      h("span", {}, "started ", h("b", {}, when(run.created))),
      run.exit_code === null ? null : h("span", {}, "exit code ", h("b", {}, run.exit_code)),
      run.folder ? h("span", {}, "folder ", h("b", {}, run.folder)) : null),
    (run.evaluations || []).length > 1
      ? h("p", { class: "muted" }, `Shown: the run's own grading. The store holds ${run.evaluations.length - 1} later evaluation(s) of its trials (soundstage show ${run.id} --evaluation N).`)
      : null,
    h("h2", {}, "Scenes"),
    sceneTables.length ? sceneTables : h("p", { class: "muted" }, "No trial has ended yet."),
    h("h2", {}, "Trials"),
    h("table", { id: "trials" },
      h("thead", {}, h("tr", {}, ["scene", "trial", "outcome", "score", "ended by", "sandbox", "required checks that did not pass"].map((x) => h("th", {}, x)))),
      h("tbody", {}, trials)),
  );
}

// ---- a trial: checks, timeline, diff ----
const QUIET = new Set(["write", "knows", "asked", "told", "start"]);

function preview(value, limit) {
  if (value === null || value === undefined || value === "") return "";
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text.length > limit ? text.slice(0, limit) + "…" : text;
}

// The names of the shown trial's records by id (#support beside C2FJSP4FLTM), from its recorded state.
let names = new Map();

// An id with its name beside it, when its world had one; `ids` may be a list of them.
function named(ids) {
  return [ids].flat().map((id, i) => [i ? ", " : "", String(id),
    names.has(String(id)) ? h("span", { class: "name" }, ` (${names.get(String(id))})`) : null]);
}

// The named ids a call's request mentions (in its path, query or body), each once, in order.
function mentioned(event) {
  const text = [event.path, JSON.stringify(event.query || {}), JSON.stringify(event.body ?? "")].join(" ");
  const ids = new Set(text.split(/[^A-Za-z0-9_=+.-]+/).filter((word) => names.has(word)));
  if (!ids.size) return null;
  return h("div", { class: "names" }, [...ids].map((id, i) => [i ? " · " : "", id, " ", h("b", {}, names.get(id))]));
}

// A call's answer as the trace recorded it: its status and the start of its body; opened, the body, cut at
// RESPONSE_LIMIT characters (a listing may be megabytes). Opened by itself when the call failed.
const RESPONSE_LIMIT = 20000;

function response(event, failed) {
  if (event.response === null || event.response === undefined) {
    return h("div", { class: "preview response" }, `response ${event.status}: no body recorded`);
  }
  const text = typeof event.response === "string" ? event.response : JSON.stringify(event.response, null, 2);
  const cut = text.length > RESPONSE_LIMIT ? `\n… ${text.length - RESPONSE_LIMIT} more characters not shown` : "";
  return h("details", { class: "response", open: failed },
    h("summary", {}, "response ", h("span", { class: "status" }, String(event.status)), " ",
      h("span", { class: "preview" }, preview(event.response, 160))),
    h("pre", {}, text.slice(0, RESPONSE_LIMIT) + cut));
}

const failedCall = (event) => event.kind === "call" && (event.status >= 400 || event.error === true);

// Mail sent (a `message` event with its headers): who sent it to whom, its subject and thread, then its body
// (`text` is the subject, an empty line, the body).
function describeMail(event) {
  const mail = event.mail;
  const body = mail.subject && event.text.startsWith(mail.subject) ? event.text.slice(mail.subject.length).trimStart() : event.text;
  const header = (label, addresses) => addresses && addresses.length
    ? h("div", { class: `mail-${label}` }, h("span", { class: "muted" }, `${label}: `), addresses.join(", ")) : null;
  return [
    h("span", { class: "mail-service" }, event.service), " ", event.from_agent ? "agent " : "",
    named(event.user), h("span", { class: "name" }, ` <${mail.sender}>`),
    header("to", mail.to), header("cc", mail.cc), header("bcc", mail.bcc),
    h("div", { class: "mail-subject" }, h("span", { class: "muted" }, "subject: "), h("b", {}, preview(mail.subject, 200)),
      h("span", { class: "muted" }, ` · thread ${event.channel} · id ${event.ts}`)),
    h("q", {}, preview(body, 400)),
  ];
}

function describeEvent(event) {
  switch (event.kind) {
    case "call":
      return [
        h("span", {}, `${event.service} ${event.method} ${event.path} `),
        h("span", { class: "status" }, String(event.status)),
        // A call that came through an MCP tool names it.
        event.mcp ? h("span", { class: "tool" }, ` via mcp:${event.service}/${event.mcp.tool}`) : null,
        event.body ? h("div", { class: "preview" }, preview(event.body, 240)) : null,
        mentioned(event),
        response(event, failedCall(event)),
      ];
    case "message":
      if (event.mail) return describeMail(event);
      return [event.from_agent ? "agent" : "", event.from_agent ? " " : "", named(event.user), " in ", named(event.channel), ": ",
        h("q", {}, preview(event.text, 400))];
    case "revealed": return [named(event.person), ` revealed ${event.fact} to `, named(event.to)];
    case "withheld": return [named(event.person), ` withheld ${event.fact} from `, named(event.to), ` (${event.reason})`];
    case "referred": return [named(event.person), " referred ", named(event.to), " to ", named(event.owner), ` for ${event.fact}`];
    case "decided": return [named(event.person), ` decided ${event.decision}: ${event.option}`];
    case "answered": return [named(event.person), ` answered `, named(event.event), `: ${event.response} (${event.reason})`];
    case "asked": return [named(event.by), " asked ", named(event.person), ` about ${event.fact || event.decision}`];
    case "told": return [named(event.person), ` was told ${event.fact}`];
    case "knows": return [named(event.person), ` knows ${event.fact} (${event.source})`];
    case "fault_started": return [`fault ${event.fault} started`];
    case "fault_resolved": return [`fault ${event.fault} resolved`];
    case "script": return [named(event.person), " in ", named(event.channel), ` (${event.trigger}): `, h("q", {}, preview(event.text, 400))];
    case "clock": return [`the clock moved ${event.advanced}`];
    case "write": return [`${event.collection} ${event.op} `, named(event.id), event.by ? ` (by call ${event.by})` : ""];
    case "finish": return [`finished (${event.reason}): `, h("q", {}, preview(event.output, 300))];
    case "after_finish": return [`refused, after finish: ${event.service} ${event.method} ${event.path} ${event.status}`];
    case "start": return [`scene ${event.scene}, world ${event.world}`];
    case "milestone": return [`milestone reached: ${event.key}`];
    default: {
      const rest = Object.fromEntries(Object.entries(event).filter(([k]) => !["seq", "kind", "t"].includes(k)));
      return [preview(rest, 300)];
    }
  }
}

function highlight(seq) {
  for (const old of document.querySelectorAll(".entry.highlight")) old.classList.remove("highlight");
  const entry = document.getElementById(`seq-${seq}`);
  if (!entry) return;
  entry.classList.add("highlight");
  entry.scrollIntoView({ block: "center" });
}

function checkCard(check, base) {
  const state = verdict(check);
  return h("div", { class: `card check ${state}`, "data-check": check.id },
    h("div", {}, h("b", {}, check.id), " ", badge(state), " ", h("span", { class: "muted" }, check.kind), check.required ? "" : h("span", { class: "muted" }, " (not required)"),
      check.weight === 1 ? "" : h("span", { class: "muted weight" }, check.weight === 0 ? " (weight 0: not scored)" : ` (weight ${check.weight})`)),
    h("dl", {},
      h("dt", {}, "expected"), h("dd", {}, check.expected),
      h("dt", {}, "actual"), h("dd", {}, check.actual),
      h("dt", {}, "why"), h("dd", {}, check.explanation),
      h("dt", {}, "evidence"), h("dd", { class: "evidence" }, check.evidence.length
        ? check.evidence.map((seq) => link(`${base}/${seq}`, `#${seq}`, { "data-seq": seq, class: "evidence-link" }))
        : h("span", { class: "muted" }, "none"))),
  );
}

function diffView(diff) {
  const collections = Object.entries(diff || {});
  if (!collections.length) return h("p", { class: "muted" }, "Nothing changed.");
  return collections.map(([name, change]) => h("details", { class: "card", "data-collection": name },
    h("summary", {}, h("b", {}, name), ` — ${(change.added || []).length} added, ${(change.removed || []).length} removed, ${(change.changed || []).length} changed`),
    (change.added || []).length ? [h("h3", {}, "added"), h("pre", {}, JSON.stringify(change.added, null, 2))] : null,
    (change.removed || []).length ? [h("h3", {}, "removed"), h("pre", {}, JSON.stringify(change.removed, null, 2))] : null,
    (change.changed || []).map((c) => [h("h3", {}, `changed ${c.id}`), h("pre", {}, JSON.stringify(c.changes, null, 2))]),
  ));
}

async function trialView(runId, scene, number, seq) {
  const trial = await api(`/v1/runs/${enc(runId)}/trials/${number}?scene=${enc(scene)}`);
  const base = trialHref(runId, scene, number);
  const checks = trial.checks || [];
  const order = { failed: 0, undecided: 1, passed: 2 };
  const sorted = [...checks].sort((a, b) => order[verdict(a)] - order[verdict(b)]);
  const events = trial.events || [];
  names = new Map(Object.entries(trial.names || {}));
  const timeline = events.map((event) => h("div", {
    id: `seq-${event.seq}`,
    class: `entry ${event.kind}` + (QUIET.has(event.kind) ? " quiet" : "") + (failedCall(event) ? " error" : "") + (event.mail ? " mail" : ""),
    "data-seq": event.seq,
  },
    h("span", { class: "seq" }, event.seq),
    h("span", { class: "time" }, (event.t || "").slice(11, 19)),
    h("span", { class: "kind" }, event.mail ? "mail" : event.kind),
    h("span", { class: "what" }, describeEvent(event))));
  show(
    h("h1", {}, link(runHref(runId), runId), ` · ${scene} · trial ${number} `, trial.outcome ? badge(trial.outcome) : badge("running")),
    h("div", { class: "meta" },
      h("span", { id: "score" }, "score ", h("b", {}, scored(trial.score))),
      h("span", {}, "world ", h("b", {}, trial.world)),
      h("span", {}, "ended by ", h("b", {}, trial.finish_reason || "–")),
      h("span", {}, "sandbox ", h("b", {}, trial.sandbox || "–")),
      h("span", {}, "calls ", h("b", {}, (trial.trace || []).length)),
      h("span", {}, "events ", h("b", {}, events.length)),
      trial.folder ? h("span", {}, "folder ", h("b", {}, trial.folder)) : null),
    (trial.notes || []).map((note) => h("p", { class: "warning" }, note)),
    h("div", { class: "layout" },
      h("section", { id: "checks" },
        h("h2", {}, `Checks (${checks.filter((c) => c.passed === true).length} of ${checks.length} passed)`),
        sorted.length ? sorted.map((c) => checkCard(c, base)) : h("p", { class: "muted" }, "No checks: the trial is ungraded."),
        h("h2", {}, "Output"),
        h("pre", { id: "output" }, trial.output === null ? "(not available)" : trial.output || "(none)"),
        h("h2", {}, "Stderr (agent.log)"),
        h("pre", { id: "stderr" }, trial.stderr === null || trial.stderr === undefined
          ? "(not kept here: the agent of a run over HTTP is run by its caller, or the trial's folder cannot be read)"
          : trial.stderr || "(none)")),
      h("section", {},
        h("h2", {}, "Timeline"),
        trial.events === null
          ? h("p", { class: "muted" }, "The trial's folder cannot be read here: only its checks are in the store.")
          : h("div", { class: "card timeline", id: "timeline" }, timeline))),
    h("h2", {}, "State diff"),
    h("section", { id: "diff" }, diffView(trial.diff)),
  );
  if (seq) highlight(seq);
}

// ---- two runs compared ----
async function compareView(a, b) {
  const result = await api(`/v1/compare?a=${enc(a)}&b=${enc(b)}`);
  const change = (item, run) => h("tr", { class: item.regression ? "regressed-row" : "" },
    h("td", {}, item.scene), h("td", {}, item.check || "(the scene)"),
    h("td", { class: "num" }, percent(item.a)), h("td", { class: "num" }, percent(item.b)),
    h("td", {}, item.regression ? badge("regressed") : ""),
    h("td", {}, item.why, ": ", item.trial_numbers.map((n) => [link(trialHref(run, item.scene, n), `trial ${n}`), " "])));
  const scenes = result.scenes.map((s) => h("tr", {},
    h("td", {}, s.scene),
    h("td", { class: "num" }, s.a ? percent(s.a.pass_at_1) : "–"),
    h("td", { class: "num" }, s.b ? percent(s.b.pass_at_1) : "–"),
    h("td", { class: "num" }, s.a ? percent(s.a.pass_hat_k) : "–"),
    h("td", { class: "num" }, s.b ? percent(s.b.pass_hat_k) : "–"),
    h("td", {}, s.a && s.b && s.b.pass_at_1 !== null && s.a.pass_at_1 !== null
      ? (s.b.pass_at_1 > s.a.pass_at_1 ? h("span", { class: "up" }, "better") : s.b.pass_at_1 < s.a.pass_at_1 ? h("span", { class: "down" }, "worse") : "same")
      : ""),
    h("td", { class: "num" }, s.a ? scored(s.a.mean_score) : "–"),
    h("td", { class: "num" }, s.b ? scored(s.b.mean_score) : "–")));
  const scores = (result.scores || []).map((item) => {
    const run = item.b < item.a ? b : a; // the trials behind a change are the lower run's
    return h("tr", {},
      h("td", {}, item.scene), h("td", { class: "num" }, scored(item.a)), h("td", { class: "num" }, scored(item.b)),
      h("td", { class: "num" }, h("span", { class: item.change < 0 ? "down" : "up" }, `${item.change > 0 ? "+" : ""}${item.change.toFixed(2)}`)),
      h("td", {}, item.why, ": ", item.trial_numbers.map((n) => [link(trialHref(run, item.scene, n), `trial ${n}`), " "])));
  });
  const table = (id, rows, run) => h("table", { id },
    h("thead", {}, h("tr", {}, ["scene", "check", "A", "B", "", "trials behind it"].map((x) => h("th", {}, x)))),
    h("tbody", {}, rows.map((item) => change(item, run))));
  show(
    h("h1", {}, "Compare ", link(runHref(a), a), " (A) with ", link(runHref(b), b), " (B)"),
    h("p", { id: "verdict" }, result.regressed ? badge("regressed") : badge("passed"), " ",
      result.regressed ? "B regressed: a required check's pass rate fell, or a scene that passed fails." : "No regression."),
    h("table", { id: "scenes" },
      h("thead", {}, h("tr", {}, ["scene", "pass@1 A", "pass@1 B", "pass^k A", "pass^k B", "", "mean score A", "mean score B"].map((x) => h("th", {}, x)))),
      h("tbody", {}, scenes)),
    h("h2", {}, "Worse"), result.worse.length ? table("worse", result.worse, b) : h("p", { class: "muted" }, "Nothing."),
    h("h2", {}, "Better"), result.better.length ? table("better", result.better, a) : h("p", { class: "muted" }, "Nothing."),
    h("h2", {}, "Mean scores that changed"), scores.length
      ? h("table", { id: "scores" },
        h("thead", {}, h("tr", {}, ["scene", "A", "B", "change", "trials behind it"].map((x) => h("th", {}, x)))),
        h("tbody", {}, scores))
      : h("p", { class: "muted" }, "None."),
  );
}

// ---- routing: #/runs[?scene=&agent=&since=&until=], #/run/ID, #/trial/RUN/SCENE/N[/SEQ], #/compare/A/B ----
let shown = null;

async function route() {
  const [path, query] = window.location.hash.replace(/^#\/?/, "").split("?");
  const [view, ...args] = (path || "runs").split("/").map(decodeURIComponent);
  try {
    if (view === "trial" && args.length >= 3) {
      const key = args.slice(0, 3).join("/");
      if (shown === key && args[3]) { highlight(args[3]); return; }  // the same trial: only move to the entry
      await trialView(args[0], args[1], args[2], args[3]);
      shown = key;
      return;
    }
    shown = null;
    if (view === "run" && args.length === 1) await runView(args[0]);
    else if (view === "compare" && args.length === 2) await compareView(args[0], args[1]);
    else await runsView(new URLSearchParams(query || ""));
  } catch (error) {
    shown = null;
    if (error instanceof Unauthorized) askForToken();
    else show(h("h1", {}, "Cannot show this"), h("p", { class: "error-box" }, error.message));
  }
}

window.addEventListener("hashchange", route);
document.addEventListener("DOMContentLoaded", route);
