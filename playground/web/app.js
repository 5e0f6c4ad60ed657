// The playground page: runs swizzle's driver (compiled to WebAssembly, in worker.js) on the
// editor's text as you type, and draws what it returns. The state lives in the URL fragment:
// `#example=NAME` or `#code=BASE64URL` (the text, UTF-8), so that a link reproduces a layout;
// `&bench=N` re-checks the text N times and shows the median time.

const $ = (id) => document.getElementById(id);
const editor = $("editor");
let examples = [];

// ---- the checker, in a worker ----

let worker = null;
let nextId = 0;
const waiting = new Map(); // id → resolve

function start() {
  worker = new Worker(new URL("worker.js", import.meta.url), { type: "module" });
  worker.onmessage = ({ data }) => {
    const resolve = waiting.get(data.id);
    waiting.delete(data.id);
    if (data.error !== undefined) restart(data.error);
    resolve?.(data);
  };
  worker.onerror = (event) => restart(event.message ?? "the worker failed");
}

// A fresh worker (a fresh instance of the module) after a trap in the module (a panic in the
// checker) or a check past LIMIT_MS; whatever was waiting is answered with `error`.
function restart(error) {
  worker.terminate();
  const pending = [...waiting.values()];
  waiting.clear();
  start();
  for (const resolve of pending) resolve({ error });
}

// A check that takes longer than this is stopped (its worker with it).
const LIMIT_MS = 20000;

function ask(message) {
  const id = nextId++;
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      const mine = waiting.get(id);
      waiting.delete(id);
      restart(`stopped after ${LIMIT_MS / 1000} s`);
      mine?.({ error: `stopped after ${LIMIT_MS / 1000} s` });
    }, LIMIT_MS);
    waiting.set(id, (data) => {
      clearTimeout(timer);
      resolve(data);
    });
    worker.postMessage({ id, ...message });
  });
}

// ---- the URL fragment ----

function encode(text) {
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function decode(text) {
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
}

function fragment() {
  return new URLSearchParams(location.hash.replace(/^#/, ""));
}

function saveState() {
  const params = new URLSearchParams();
  const example = examples.find((e) => e.text === editor.value);
  if (example) params.set("example", example.name);
  else params.set("code", encode(editor.value));
  history.replaceState(null, "", "#" + params.toString());
}

// ---- drawing ----

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "text") node.textContent = value;
    else node.setAttribute(key, value);
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

function pre(text, cls) {
  return el("pre", cls ? { class: cls, text } : { text });
}

function view(title, ...children) {
  return el("div", {}, el("h4", { text: title }), ...children);
}

// The SVG is swizzle's own picture (plain SVG 1.1, no scripts): inserted as markup.
function picture(svg) {
  const div = el("div", { class: "picture" });
  div.innerHTML = svg;
  return div;
}

const MAX_TABLE_CELLS = 8192;

// The offset grid: one table per plane, rows the second-to-last coordinate, columns the
// last; each cell carries its place as data-at="row,column" (and data-plane).
function grid(data) {
  const rows = data.planes[0]?.rows ?? [];
  const cells = data.planes.length * rows.length * (rows[0]?.length ?? 0);
  if (cells > MAX_TABLE_CELLS) {
    return pre(`${cells} cells: too many for a table, see the picture`);
  }
  const div = el("div", { class: "grids" });
  data.planes.forEach((plane, p) => {
    const table = el("table", { class: "grid", "data-plane": p });
    if (plane.label) table.append(el("caption", { text: plane.label }));
    const head = el("tr", {}, el("th", { text: `${data.row_name} \\ ${data.column_name}` }));
    (plane.rows[0] ?? []).forEach((_, c) => head.append(el("th", { text: c })));
    table.append(head);
    plane.rows.forEach((row, r) => {
      const tr = el("tr", {}, el("th", { text: r }));
      row.forEach((offset, c) => {
        const td = el("td", { "data-at": `${r},${c}` });
        if (offset === null) {
          td.className = "pad";
          td.textContent = "·";
        } else td.textContent = offset;
        tr.append(td);
      });
      table.append(tr);
    });
    div.append(table);
  });
  return div;
}

function card(item) {
  const views = el("div", { class: "views" });
  const node = el(
    "article",
    { class: `card ${item.kind}`, "data-kind": item.kind, "data-name": item.name },
    el("h3", {}, el("span", { class: "kind", text: item.kind.replace("_", " ") + " " }), item.name),
    views,
  );
  const add = (title, ...children) => views.append(view(title, ...children));
  switch (item.kind) {
    case "layout":
    case "threads":
      add("facts", pre(item.facts));
      if (item.threads) add("thread.value of each tile element", pre(item.threads, "threads"));
      if (item.grid) add("offsets", grid(item.grid));
      else if (item.grid_error) add("offsets", pre(`not drawn: ${item.grid_error}`));
      if (item.svg) add("picture", picture(item.svg));
      else if (item.svg_error) add("picture", pre(`not drawn: ${item.svg_error}`));
      break;
    case "access":
      if (item.on.length === 0) add("banks", pre("fits no layout here (its coordinates name no layout's)"));
      for (const on of item.on) {
        add(`on ${on.layout}: conflicts and transactions`, pre(on.analysis));
        add(`on ${on.layout}: bank map`, pre(on.banks, "banks"));
        if (on.svg) add(`on ${on.layout}: lanes`, picture(on.svg));
      }
      break;
    case "traversal":
      add("visit order", pre(item.order, "order"));
      if (item.svg) add("picture", picture(item.svg));
      else if (item.svg_error) add("picture", pre(`not drawn: ${item.svg_error}`));
      break;
    case "raster":
      add("order", pre(item.order), grid(item.grid));
      break;
    case "kernel":
      add("plan", pre(item.plan, "plan"));
      break;
    case "tiled_copy":
      add("instructions", pre(item.instructions, "instructions"));
      break;
    default:
      break;
  }
  return node;
}

function errorNode(error, lines) {
  const where = error.line > 0 ? `line ${error.line}, column ${error.column}` : "(no place)";
  const node = el("div", { class: "error", "data-line": error.line, "data-column": error.column });
  node.append(el("span", { class: "where", text: `error at ${where}: ` }), error.message);
  if (error.line > 0 && lines[error.line - 1] !== undefined) {
    const width = error.end_line === error.line ? Math.max(1, error.end_column - error.column) : 1;
    node.append(
      "\n" + `${error.line} | ${lines[error.line - 1]}` + "\n" +
      " ".repeat(String(error.line).length) + " | " + " ".repeat(error.column - 1) + "^".repeat(width),
    );
  }
  node.addEventListener("click", () => select(error, lines));
  return node;
}

// Puts the editor's cursor on an error.
function select(error, lines) {
  if (error.line <= 0) return;
  const at = indexOf(lines, error.line, error.column);
  editor.focus();
  editor.setSelectionRange(at, at);
}

// The character index of a line and column (both from 1) of `lines`.
function indexOf(lines, line, column) {
  let at = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i++) at += lines[i].length + 1;
  return at + column - 1;
}

// The editor's text again behind it, with each error's span marked.
function highlight(text, errors) {
  const lines = text.split("\n");
  const spans = errors
    .filter((e) => e.line > 0)
    .map((e) => {
      const start = indexOf(lines, e.line, e.column);
      return [start, Math.max(start + 1, indexOf(lines, e.end_line, e.end_column))];
    })
    .sort((a, b) => a[0] - b[0]);
  const backdrop = $("backdrop");
  backdrop.replaceChildren();
  let at = 0;
  for (const [start, end] of spans) {
    if (start < at) continue;
    backdrop.append(text.slice(at, start), el("mark", { text: text.slice(start, end) || " " }));
    at = end;
  }
  backdrop.append(text.slice(at) + "\n");
  syncScroll();
}

function syncScroll() {
  const backdrop = $("backdrop");
  backdrop.scrollTop = editor.scrollTop;
  backdrop.scrollLeft = editor.scrollLeft;
}

function render(result, text, ms) {
  const lines = text.split("\n");
  highlight(text, result.errors);
  const errors = $("errors");
  errors.replaceChildren(...result.errors.map((e) => errorNode(e, lines)));
  $("items").replaceChildren(...result.items.map(card));
  $("rust").textContent = result.rust;
  $("wgsl").textContent = result.wgsl;
  const status = $("status");
  const count = result.errors.length;
  const items = result.items.length;
  status.textContent = count === 0 ? `ok: ${items} item${items === 1 ? "" : "s"}` : `${count} error${count === 1 ? "" : "s"}`;
  status.className = count === 0 ? "status" : "status bad";
  const time = $("time");
  time.textContent = `checked in ${ms.toFixed(1)} ms`;
  time.dataset.ms = ms.toFixed(2);
}

// ---- checking ----

// One check at a time; edits made meanwhile are checked once it answers, with the latest text.
let running = false;
let again = false;

async function recheck() {
  if (running) {
    again = true;
    return;
  }
  running = true;
  do {
    again = false;
    const text = editor.value;
    const asked = performance.now();
    const answer = await ask({ kind: "check", text });
    if (answer.error !== undefined) {
      $("status").textContent = `the check failed: ${answer.error} (please report this layout)`;
      $("status").className = "status bad";
    } else if (text === editor.value) {
      render(JSON.parse(answer.json), text, answer.ms);
      const shown = performance.now() - asked;
      $("time").textContent += `, shown in ${shown.toFixed(1)} ms`;
      $("time").dataset.shown = shown.toFixed(2);
    } else again = true;
    saveState();
  } while (again);
  running = false;
}

let pending = null;
function schedule() {
  clearTimeout(pending);
  pending = setTimeout(recheck, 30);
}

async function bench(times) {
  const text = editor.value;
  const { samples } = await ask({ kind: "bench", text, times });
  if (!samples) return;
  samples.sort((a, b) => a - b);
  const median = samples[Math.floor(samples.length / 2)];
  const node = $("bench");
  node.textContent = `re-check: median ${median.toFixed(2)} ms, min ${samples[0].toFixed(2)} ms over ${times} runs of ${text.length} characters`;
  node.dataset.median = median.toFixed(2);
}

async function main() {
  start();
  examples = JSON.parse((await ask({ kind: "examples" })).json);
  const menu = $("examples");
  menu.append(el("option", { value: "", text: "(your layout)" }));
  for (const example of examples) menu.append(el("option", { value: example.name, text: example.title }));
  const state = fragment();
  const chosen = examples.find((e) => e.name === state.get("example"));
  if (state.has("code")) editor.value = decode(state.get("code"));
  else editor.value = (chosen ?? examples[0]).text;
  menu.value = examples.find((e) => e.text === editor.value)?.name ?? "";
  menu.addEventListener("change", () => {
    const example = examples.find((e) => e.name === menu.value);
    if (example) {
      editor.value = example.text;
      recheck();
    }
  });
  editor.addEventListener("scroll", syncScroll);
  editor.addEventListener("input", () => {
    highlight(editor.value, []);
    menu.value = examples.find((e) => e.text === editor.value)?.name ?? "";
    schedule();
  });
  editor.addEventListener("keydown", (event) => {
    if (event.key === "Tab") {
      event.preventDefault();
      editor.setRangeText("    ", editor.selectionStart, editor.selectionEnd, "end");
      schedule();
    }
  });
  $("link").addEventListener("click", () => {
    saveState();
    navigator.clipboard?.writeText(location.href);
  });
  window.addEventListener("hashchange", () => {
    const params = fragment();
    const example = examples.find((e) => e.name === params.get("example"));
    const text = params.has("code") ? decode(params.get("code")) : example?.text;
    if (text !== undefined && text !== editor.value) {
      editor.value = text;
      recheck();
    }
  });
  await recheck();
  const times = Number(state.get("bench"));
  if (times > 0) await bench(times);
  document.body.dataset.ready = "true";
}

main().catch((error) => {
  $("status").textContent = `the compiler did not load: ${error}`;
  $("status").className = "status bad";
});
