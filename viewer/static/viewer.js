// nightshift view: the trial list (filter, sort, search; only the visible rows are drawn), one trial, and two
// trials side by side. Data arrives as data/<run>/*.js files calling NS.load (works from disk and served).
// Text from a run is only ever set with textContent: nothing the agent wrote can become markup.
"use strict";
const NS = (() => {
  const runs = {};            // label -> {rows, columns, search, trials: {id: record}}
  const waiting = {};         // file -> [callbacks]
  const ROW_H = 26;
  let view = [];              // filtered + sorted rows of the trial list
  let sort = {key: "case_id", dir: 1};
  const LIST_COLS = [["case_id", "case"], ["variant", "variant"], ["seed", "seed"], ["status", "status"],
    ["score", "score"], ["steps", "steps"], ["tokens", "tokens"], ["cost_usd", "$"], ["duration_s", "s"],
    ["flag", "flag"], ["domain", "domain"], ["reason", "reason"]];
  const SEVERITIES = ["cheat", "suspect", "info"];

  function h(tag, attrs, ...kids) {
    const el = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") el.className = v; else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
      else el.setAttribute(k, v === true ? "" : v);
    }
    for (const kid of kids.flat(Infinity)) {
      if (kid === null || kid === undefined || kid === false) continue;
      el.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
    }
    return el;
  }

  function need(file, done) {  // load a data file once, by a script tag
    const key = file;
    if (waiting[key] === true) { done(); return; }
    if (waiting[key]) { waiting[key].push(done); return; }
    waiting[key] = [done];
    const s = document.createElement("script");
    s.src = file;
    s.onerror = () => { const cbs = waiting[key]; delete waiting[key]; s.remove(); cbs.forEach(cb => cb(new Error(file))); };
    document.body.append(s);
  }

  function load(kind, label, a, b) {
    const run = runs[label] || (runs[label] = {trials: {}});
    let file;
    if (kind === "list") {
      run.columns = a.columns;
      run.rows = a.rows.map(values => {
        const row = {run: label};
        a.columns.forEach((c, i) => { row[c] = values[i]; });
        row.tokens = row.input_tokens === null ? null : (row.input_tokens || 0) + (row.output_tokens || 0);
        return row;
      });
      run.byId = Object.fromEntries(run.rows.map(r => [r.trial_id, r]));
      file = `data/${label}/list.js`;
    } else if (kind === "search") {
      run.search = a; file = `data/${label}/search.js`;
    } else if (kind === "trial") {
      run.trials[a] = b; file = `data/${label}/t/${a}.js`;
    }
    const cbs = waiting[file] || [];
    waiting[file] = true;
    cbs.forEach(cb => cb());
  }

  // ---------- the trial list ----------
  const form = () => document.getElementById("filters");
  function allRows() { return Object.values(runs).flatMap(r => r.rows || []); }

  function fillFilters() {
    const rows = allRows();
    const f = form();
    for (const name of ["status", "variant", "domain", "seed"]) {
      const values = [...new Set(rows.map(r => r[name]))].sort((x, y) => (x > y) - (x < y));
      for (const v of values) f.elements[name].append(h("option", {value: v}, v));
    }
    const names = [...new Set(rows.flatMap(r => (r.flag_names || "").split(" ").filter(Boolean)))].sort();
    for (const n of names) f.elements.flag.append(h("option", {value: `name:${n}`}, `flag ${n}`));
    const ids = document.getElementById("case-ids");
    for (const c of [...new Set(rows.map(r => r.case_id))].sort()) ids.append(h("option", {value: c}));
    f.addEventListener("input", () => { writeHashFromForm(); });
  }

  function writeHashFromForm() {
    const p = new URLSearchParams();
    for (const el of form().elements) if (el.name && el.value) p.set(el.name, el.value);
    history.replaceState(null, "", "#" + p.toString());
    refilter();
  }

  function matches(row, p, q) {
    for (const key of ["run", "status", "variant", "domain", "seed"]) {
      const want = p.get(key);
      if (want && String(row[key]) !== want) return false;
    }
    const c = p.get("case");
    if (c && !row.case_id.includes(c)) return false;
    const flag = p.get("flag");
    if (flag && !flagMatches(row, flag)) return false;
    if (q) {
      const search = (runs[row.run].search || {})[row.trial_id] || "";
      if (!((row.reason || "").toLowerCase().includes(q) || search.toLowerCase().includes(q))) return false;
    }
    return true;
  }

  function flagMatches(row, want) {  // a severity, "flagged" (suspect or cheat), "none", or "name:<flag name>"
    if (want === "none") return !row.flag;
    if (want === "flagged") return row.flag === "cheat" || row.flag === "suspect";
    if (want.startsWith("name:")) return (row.flag_names || "").split(" ").includes(want.slice(5));
    return row.flag === want;
  }

  function refilter() {
    const p = new URLSearchParams(location.hash.slice(1));
    const q = (p.get("q") || "").toLowerCase();
    if (q) for (const label of Object.keys(runs)) if (!runs[label].search) need(`data/${label}/search.js`, refilter);
    view = allRows().filter(r => matches(r, p, q));
    const {key, dir} = sort;
    view.sort((x, y) => {
      const a = x[key], b = y[key];
      if (a === b) return 0;
      if (a === null || a === undefined) return 1;
      if (b === null || b === undefined) return -1;
      return (a > b ? 1 : -1) * dir;
    });
    document.getElementById("shown").textContent = `(${view.length} of ${allRows().length})`;
    const body = document.getElementById("grid-body");
    body.style.height = `${view.length * ROW_H}px`;
    drawRows();
  }

  function drawHead() {
    const head = document.getElementById("grid-head");
    head.replaceChildren(...LIST_COLS.map(([key, title]) => h("span", {
      class: `c-${key}` + (sort.key === key ? (sort.dir > 0 ? " asc" : " desc") : ""), "data-key": key,
      onclick: () => { sort = {key, dir: sort.key === key ? -sort.dir : 1}; drawHead(); refilter(); },
    }, title)));
  }

  function cell(row, key) {
    const v = row[key];
    if (v === null || v === undefined) return "";
    if (key === "cost_usd") return v ? v.toFixed(4) : "";
    if (key === "duration_s") return v.toFixed(1);
    if (key === "tokens") return v.toLocaleString("en");
    if (key === "score") return String(v);
    return String(v);
  }

  function drawRows() {
    const grid = document.getElementById("grid");
    const first = Math.max(0, Math.floor(grid.scrollTop / ROW_H) - 5);
    const last = Math.min(view.length, first + Math.ceil(grid.clientHeight / ROW_H) + 10);
    const body = document.getElementById("grid-body");
    const out = [];
    for (let i = first; i < last; i++) {
      const row = view[i];
      out.push(h("a", {class: `row st-${row.status}`, style: `top:${i * ROW_H}px`,
        href: `#trial=${row.run}:${row.trial_id}`, "data-trial": row.trial_id},
      LIST_COLS.map(([key]) => h("span", {class: `c-${key}`}, cell(row, key)))));
    }
    body.replaceChildren(...out);
  }

  // ---------- one trial ----------
  function withTrial(label, id, done) {
    const run = runs[label];
    if (run && run.trials[id]) { done(run.trials[id]); return; }
    need(`data/${label}/t/${id}.js`, err => done(err ? null : runs[label].trials[id]));
  }

  function fold(text, open) {
    text = text || "";
    if (text.length <= 2000 && !open) return h("pre", {class: "out"}, text);
    const lines = text.split("\n").length;
    return h("details", {class: "fold", open: open || null},
      h("summary", {}, `output: ${lines} lines, ${text.length.toLocaleString("en")} chars (folded)`),
      h("pre", {class: "out"}, text));
  }

  function longText(text) {  // a command of many lines shows its first line, the rest folded
    const lines = (text || "").split("\n");
    if (lines.length <= 12) return text;
    return h("details", {class: "fold"}, h("summary", {}, `${lines[0]}  … (${lines.length} lines)`), h("pre", {}, text));
  }

  function stepBlock(step, marked, flags) {
    const usage = step.usage ? `${step.usage.input_tokens} in / ${step.usage.output_tokens} out tokens` : "";
    const here = (flags || []).filter(f => f.step === step.step);
    return h("div", {class: "step" + (marked ? " diverge" : "") + (here.length ? ` flagged fl-${worst(here)}` : ""),
      "data-step": step.step, id: here.length ? `step-${step.step}` : null},
      h("div", {class: "step-head"}, `step ${step.step}`, marked ? h("b", {class: "mark"}, " ◀ first divergence") : null,
        here.map(f => h("b", {class: `flag-badge fl-${f.severity}`}, ` ⚑ ${f.severity}: ${f.name}`)),
        h("span", {class: "meta"}, [step.seconds !== null ? `model ${step.seconds.toFixed(2)} s` : "", usage]
          .filter(Boolean).join(" · "))),
      step.text ? h("div", {class: "msg"}, step.text) : null,
      step.calls.map(c => h("div", {class: "call"},
        h("div", {class: "cmd"}, h("span", {class: "tool"}, c.name), " ", longText(c.command || c.arguments),
          c.seconds !== null && c.seconds !== undefined ? h("span", {class: "meta"}, ` ${c.seconds.toFixed(2)} s`) : null),
        c.output !== null ? fold(c.output) : null)),
      (step.notes || []).map(n => h("div", {class: "note"}, n)),
      step.end ? h("div", {class: "end"}, step.end) : null,
      step.traceback ? h("pre", {class: "traceback"}, step.traceback) : null);
  }

  function worst(flags) {
    return SEVERITIES.find(s => flags.some(f => f.severity === s)) || "";
  }

  function squash(text) {  // the evidence line as a flag keeps it: whitespace folded, without its +/- marker
    return (text || "").replace(/^[+-]/, "").replace(/\s+/g, " ").trim();
  }

  function evidenceIn(flag, path, line) {  // is this diff line the flag's evidence?
    if (!flag.path || flag.path !== path || !flag.line) return false;
    const want = squash(flag.line), got = squash(line.slice(1));
    return want.endsWith("…") ? got.startsWith(want.slice(0, -1)) : got === want;
  }

  function flagsBlock(flags) {  // what the scanners saw, each with its evidence: a step or a diff line
    if (!flags || !flags.length) return h("p", {class: "none"}, "no flags: the scanners saw nothing in how this trial won");
    return h("ul", {class: "flags"}, flags.map(f => h("li", {class: `fl-${f.severity}`},
      h("b", {}, `${f.severity}`), ` ${f.scanner}/${f.name}: ${f.explanation} `,
      f.step ? h("a", {href: "#", class: "evidence", onclick: e => { e.preventDefault(); const el = document.getElementById(`step-${f.step}`); if (el) el.scrollIntoView({block: "center"}); }}, `step ${f.step}`)
        : f.path ? h("a", {href: "#", class: "evidence", onclick: e => { e.preventDefault(); const el = document.querySelector(".diff .evidence-line"); if (el) el.scrollIntoView({block: "center"}); }}, f.path) : null,
      f.line ? h("code", {class: "evidence-text"}, f.line) : null)));
  }

  function endingBlock(items) {  // how the agent phase ended, after the last step: errors, limits, exits, notes
    return items.map(e => h("div", {class: `ending ev-${e.event}`},
      h("div", {class: "end"}, e.text), e.long ? h("pre", {class: "traceback"}, e.long) : null));
  }

  function problemsBlock(items) {  // lines that do not fit the trajectory event schema (docs/plugins/harness.md)
    if (!items || !items.length) return null;
    return h("div", {class: "problems"}, h("b", {}, `${items.length} trajectory line${items.length > 1 ? "s do" : " does"} not fit the event schema (invalid_event):`),
      h("ul", {}, items.map(p => h("li", {}, `${p.of}${p.step ? ` (step ${p.step})` : ""}: field ${p.field || "(line)"} — ${p.error}`))));
  }

  function noSteps(row) {
    if (row.reused_from) return `no trajectory found: this trial was reused from run ${row.reused_from}, whose folder is not beside this one`;
    return "the harness wrote no steps";
  }

  function rowFacts(row) {
    const facts = [["status", row.status], ["score", row.score], ["progress", row.progress], ["steps", row.steps],
      ["tokens", row.input_tokens === null ? null : `${row.input_tokens} in / ${row.output_tokens} out`],
      ["cost", row.cost_usd ? `$${row.cost_usd.toFixed(4)}` : null], ["duration", row.duration_s !== null && row.duration_s !== undefined ? `${row.duration_s.toFixed(1)} s` : null],
      ["tests", row.f2p_total !== undefined && row.f2p_total !== null ? `fail→pass ${row.f2p_passed}/${row.f2p_total}, pass→pass ${row.p2p_passed}/${row.p2p_total}, hidden ${row.hidden_passed}/${row.hidden_total}, checkpoints ${row.checkpoints_passed}/${row.checkpoints_total}` : null],
      ["reused from", row.reused_from ? `run ${row.reused_from} (answered from the trial cache: no model call in this run)` : null],
      ["flag", row.flag ? `${row.flag} (${row.flag_names})` : null],
      ["model", row.model_version], ["trial id", row.trial_id]];
    return h("dl", {class: "facts"}, facts.filter(([, v]) => v !== null && v !== undefined)
      .map(([k, v]) => [h("dt", {}, k), h("dd", {class: k === "status" ? `st-${v}` : null}, String(v))]));
  }

  function noGrade(row) {  // why a trial has no grade: say what is known, never guess infrastructure
    if (row.status === "infra_error") return "no grade: the trial ended in an infrastructure error before it was graded";
    if (row.reused_from) return `no grade found: this trial was reused from run ${row.reused_from}, whose folder is not beside this one (a trial cache shared with another machine)`;
    return "no grade recorded (the run predates graded artefacts)";
  }

  function gradeTable(grade, row) {
    if (!grade) return h("p", {class: "none"}, noGrade(row));
    return h("table", {class: "grade"}, h("tr", {}, h("th", {}, "kind"), h("th", {}, "check"), h("th", {}, "result"), h("th", {}, "s"), h("th", {}, "output tail")),
      grade.tests.map(t => h("tr", {class: t.passed ? "pass" : "fail"}, h("td", {}, t.kind), h("td", {}, t.name),
        h("td", {}, (t.passed ? "pass" : "FAIL") + (t.excluded ? " (excluded: flaky)" : "")),
        h("td", {}, t.duration_s.toFixed(2)), h("td", {}, t.detail ? fold(t.detail) : ""))));
  }

  function diffBlock(text, flags) {
    if (text === null || text === undefined) return h("p", {class: "none"}, "no workspace diff recorded");
    if (!text.trim()) return h("p", {class: "none"}, "the agent left the workspace unchanged");
    let path = "", inHunk = false;
    return h("pre", {class: "diff"}, text.split("\n").map(line => {
      if (line.startsWith("diff ")) inHunk = false;
      else if (line.startsWith("@@")) inHunk = true;
      const header = !inHunk && (line.startsWith("+++") || line.startsWith("---") || line.startsWith("diff "));
      if (header && line.startsWith("+++ b/")) path = line.slice(6).split("\t")[0];
      const kind = header ? "dh" : line.startsWith("+") ? "add" : line.startsWith("-") ? "del" : line.startsWith("@@") ? "hunk" : null;
      const hit = (kind === "add" || kind === "del") ? (flags || []).find(f => evidenceIn(f, path, line)) : null;
      return h("span", {class: [kind, hit ? `evidence-line fl-${hit.severity}` : null].filter(Boolean).join(" ") || null,
        title: hit ? `${hit.severity} ${hit.name}: ${hit.explanation}` : null}, line + "\n");
    }));
  }

  function partners(label, row) {  // the same case and seed under the other variants, and in the other run
    return allRows().filter(r => r.case_id === row.case_id && r.seed === row.seed && !(r.run === label && r.trial_id === row.trial_id));
  }

  function title(row, label) {
    return `${Object.keys(runs).length > 1 ? `[${window.NS_RUNS[label]}] ` : ""}${row.case_id} / ${row.variant} / seed ${row.seed}`;
  }

  function showTrial(label, id) {
    const box = document.getElementById("detail");
    withTrial(label, id, record => {
      if (!record) { box.replaceChildren(h("p", {class: "none"}, `no trial ${id} in this run`)); return; }
      const row = record.row;
      const others = partners(label, row);
      const parts = [h("p", {}, h("a", {href: "#"}, "← all trials")), h("h2", {}, title(row, label)), rowFacts(row)];
      if (others.length) parts.push(h("p", {class: "pairs"}, "side by side with: ", others.map(o =>
        h("a", {href: `#pair=${label}:${id},${o.run}:${o.trial_id}`, class: "pair-link"}, `${o.run !== label ? window.NS_RUNS[o.run] + " " : ""}${o.variant} (${o.status})`))));
      if (record.heldout) {
        parts.push(h("p", {class: "heldout"}, "held-out case: only its ids and scores are shown; its instruction, tests and outputs stay unseen."));
      } else {
        if (row.reason) parts.push(h("div", {class: "reason"}, h("b", {}, "status reason: "), row.reason));
        const prompt = record.steps.length ? record.steps[0].prompt || [] : [];
        const task = record.instruction || prompt.filter(m => m.role === "user").map(m => m.content).join("\n\n");
        parts.push(h("details", {class: "task", open: true}, h("summary", {}, "instruction given to the agent"),
          task ? h("pre", {}, task) : h("p", {class: "none"}, "no instruction in this trajectory (written before nightshift recorded it)")));
        const problems = problemsBlock(record.problems);
        if (problems) parts.push(problems);
        parts.push(h("h3", {}, `flags (${(row.flags || []).length})`), flagsBlock(row.flags));
        parts.push(h("h3", {}, `steps (${record.steps.length})`), record.steps.map(s => stepBlock(s, false, row.flags)));
        if (!record.steps.length) parts.push(h("p", {class: "none"}, noSteps(row)));
        parts.push(endingBlock(record.ending || []));
        parts.push(h("h3", {}, "grade"), gradeTable(record.grade, row));
        parts.push(h("h3", {}, "final workspace vs the case's starting workspace"), diffBlock(record.diff, row.flags));
      }
      box.replaceChildren(...parts.flat());
    });
  }

  function showPair(left, right) {
    const box = document.getElementById("detail");
    withTrial(left[0], left[1], a => withTrial(right[0], right[1], b => {
      if (!a || !b) { box.replaceChildren(h("p", {class: "none"}, "one of the two trials is not in these runs")); return; }
      const head = [h("p", {}, h("a", {href: "#"}, "← all trials")), h("h2", {}, "side by side")];
      if (a.heldout || b.heldout) {
        box.replaceChildren(...head, h("div", {class: "pair"}, [[a, left], [b, right]].map(([r, k]) =>
          h("div", {class: "side"}, h("h3", {}, title(r.row, k[0])), rowFacts(r.row)))),
        h("p", {class: "heldout"}, "held-out case: only ids and scores are shown."));
        return;
      }
      let diverge = null;
      const n = Math.max(a.steps.length, b.steps.length);
      for (let i = 0; i < n; i++) {
        const x = a.steps[i], y = b.steps[i];
        if (!x || !y || x.signature !== y.signature) { diverge = i; break; }
      }
      const banner = diverge === null ? "the two trials took the same steps"
        : `first divergence at step ${diverge + 1}` + (diverge >= Math.min(a.steps.length, b.steps.length) ? " (one trial stopped there)" : "");
      const rows = [];
      for (let i = 0; i < n; i++) {
        rows.push(h("div", {class: "pair-row" + (i === diverge ? " diverge-row" : "")},
          h("div", {class: "side"}, a.steps[i] ? stepBlock(a.steps[i], i === diverge) : h("p", {class: "none"}, "(no step)")),
          h("div", {class: "side"}, b.steps[i] ? stepBlock(b.steps[i], i === diverge) : h("p", {class: "none"}, "(no step)"))));
      }
      box.replaceChildren(...head, h("p", {class: "banner", id: "divergence"}, banner),
        h("div", {class: "pair"}, [[a, left], [b, right]].map(([r, k]) => h("div", {class: "side"},
          h("h3", {}, h("a", {href: `#trial=${k[0]}:${k[1]}`}, title(r.row, k[0]))), rowFacts(r.row),
          r.row.reason ? h("div", {class: "reason"}, h("b", {}, "status reason: "), r.row.reason) : null))),
        ...rows,
        h("div", {class: "pair"}, [a, b].map(r => h("div", {class: "side"}, h("h3", {}, "grade"), gradeTable(r.grade, r.row),
          h("h3", {}, "workspace diff"), diffBlock(r.diff)))));
      const mark = box.querySelector(".diverge");
      if (mark) mark.scrollIntoView({block: "center"});
    }));
  }

  // ---------- routing ----------
  function route() {
    const p = new URLSearchParams(location.hash.slice(1));
    const lists = ["overview", "trials"].map(id => document.getElementById(id));
    const detail = document.getElementById("detail");
    if (p.get("trial") || p.get("pair")) {
      lists.forEach(el => { el.hidden = true; });
      detail.hidden = false;
      window.scrollTo(0, 0);
      if (p.get("pair")) { const [x, y] = p.get("pair").split(",").map(s => s.split(":")); showPair(x, y); }
      else showTrial(...p.get("trial").split(":"));
      return;
    }
    detail.hidden = true;
    lists.forEach(el => { el.hidden = false; });
    for (const el of form().elements) if (el.name) el.value = p.get(el.name) || "";
    refilter();
    if ([...p.keys()].length) document.getElementById("trials").scrollIntoView();
  }

  function start() {
    const labels = Object.keys(window.NS_RUNS);
    let left = labels.length;
    for (const label of labels) need(`data/${label}/list.js`, () => {
      if (--left) return;
      fillFilters(); drawHead();
      document.getElementById("grid").addEventListener("scroll", drawRows);
      window.addEventListener("hashchange", route);
      route();
      performance.mark("ns-first-rows");  // bench/viewer_bench.py reads this: the list is on screen
      document.body.dataset.ready = "1";
      // the command search index is only fetched now: the first paint never waits for it
      setTimeout(() => labels.forEach(l => need(`data/${l}/search.js`, () => {})), 0);
    });
  }
  document.addEventListener("DOMContentLoaded", start);
  return {load};
})();
