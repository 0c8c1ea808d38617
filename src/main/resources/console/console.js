// The Bullet console: a query editor, live validation, streamed results (sse-query), charts and the running queries of
// this REST instance. Plain JS, no dependencies; everything it talks to is the REST API of SPEC §7.2.
'use strict';

const API = '/api/bullet';
const EXAMPLES = {
  'Seed query': '{"filters":[{"field":"id","operation":"==","values":["c39ba8cfe8"]}],"aggregation":{"type":"LIMIT","size":10},"duration":30000}',
  'One record': '{"aggregation":{"type":"RAW","size":1},"duration":10000}',
  'Count by kind (windows)': '{"aggregation":{"type":"GROUP","fields":{"s_00":"kind"},"attributes":{"operations":[{"type":"COUNT"}]}},"window":{"emit":{"type":"TIME","every":2000}},"duration":10000}',
  'Count distinct': '{"aggregation":{"type":"COUNT DISTINCT","fields":{"s_00":"kind"}},"duration":5000}',
  'Top 5': '{"aggregation":{"type":"TOP K","size":5,"fields":{"s_00":"kind"}},"duration":5000}',
  'Quantiles': '{"aggregation":{"type":"DISTRIBUTION","fields":{"d_00":"v"},"attributes":{"type":"QUANTILE","numberOfPoints":11}},"duration":5000}',
  'BQL: count by kind': 'SELECT s_00, COUNT(*) FROM STREAM(5000, TIME) GROUP BY s_00',
  'BQL: expressions': "SELECT id, l_0 + l_1 AS total, UPPER(s_01) AS word FROM STREAM(10000, TIME) WHERE s_00 = 'alpha' AND l_0 % 2 = 0 LIMIT 5",
  'BQL: lateral view': 'SELECT id, e FROM STREAM(10000, TIME) LATERAL VIEW EXPLODE(lm_0) AS e LIMIT 10',
  'BQL: outer query': 'SELECT COUNT(*) AS kinds FROM (SELECT s_00, COUNT(*) FROM STREAM(5000, TIME) GROUP BY s_00)',
};

const $ = (id) => document.getElementById(id);

// ---------------------------------------------------------------- the token (when the service needs one)

// Kept for this tab only (sessionStorage) and sent as a Bearer header on every request; a 401 asks for it.
const TOKEN_KEY = 'bullet.token';

function withToken(options) {
  const opts = Object.assign({}, options || {});
  opts.headers = Object.assign({}, opts.headers || {});
  const token = sessionStorage.getItem(TOKEN_KEY);
  if (token) opts.headers.Authorization = 'Bearer ' + token;
  return opts;
}

async function api(path, options) {
  const res = await fetch(API + path, withToken(options));
  if (res.status === 401) askForToken();
  return res;
}

function askForToken() {
  const form = $('signin');
  if (form.classList.contains('hidden')) {
    form.classList.remove('hidden');
    $('token').focus();
  }
}

function signIn(event) {
  event.preventDefault();
  const token = $('token').value.trim();
  if (!token) return;
  sessionStorage.setItem(TOKEN_KEY, token);
  $('token').value = '';
  $('signin').classList.add('hidden');
  refreshRunning();
  scheduleValidation();
  if (typeof loadSchema === 'function') loadSchema(); // schema.js: the schema needs the token too
  if (typeof renderLists === 'function') renderLists(); // history.js: each token's history is its own
}
const state = { windows: [], current: -1, queryId: null, controller: null, sort: null, type: 'RAW' };
// What the console's other scripts (schema.js, builder.js, history.js, export.js) listen to.
const hooks = { run: [], result: [], finish: [], render: [] };

// ---------------------------------------------------------------- editor: highlighting and validation

function escapeHtml(s) {
  return s.replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' }[c]));
}

function highlight(text) {
  if (text.trim().startsWith('{')) {
    return escapeHtml(text).replace(
      /("(?:[^"\\\n]|\\.)*")(\s*:)?|(-?\b\d+(?:\.\d+)?(?:[eE][+-]?\d+)?\b)|\b(true|false|null)\b/g,
      (m, str, colon, num, lit) => {
        if (str) return `<span class="${colon ? 'tk-key' : 'tk-str'}">${str}</span>${colon || ''}`;
        if (num) return `<span class="tk-num">${num}</span>`;
        return `<span class="tk-lit">${lit}</span>`;
      });
  }
  const kw = /\b(SELECT|FROM|STREAM|WHERE|AND|OR|NOT|IN|IS|NULL|GROUP|BY|HAVING|ORDER|ASC|DESC|LIMIT|WINDOWING|EVERY|TUMBLING|TIME|RECORD|ALL|FIRST|AS|DISTINCT|COUNT|SUM|AVG|MIN|MAX|TOP|QUANTILE|FREQ|CUMFREQ|RLIKE|SIZEOF|CONTAINSKEY|CONTAINSVALUE|LINEAR|REGION|MANUAL|XOR|BETWEEN|CAST|IF|TRIM|LOWER|UPPER|ABS|HASH|SUBSTRING|SUBSTR|UNIXTIMESTAMP|FILTER|NOW|SIZEIS|ANY|LATERAL|VIEW|EXPLODE|OUTER)\b/gi;
  return escapeHtml(text).replace(/('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")|(\b\d+(?:\.\d+)?\b)|([A-Za-z_]+)/g, (m, str, num, word) => {
    if (str) return `<span class="tk-str">${str}</span>`;
    if (num) return `<span class="tk-num">${num}</span>`;
    return word.match(kw) ? `<span class="tk-kw">${word}</span>` : word;
  });
}

function renderEditor() {
  const text = $('query').value;
  $('highlight').innerHTML = highlight(text) + '\n';
  $('highlight').scrollTop = $('query').scrollTop;
}

function contentType(text) {
  return text.trim().startsWith('{') ? 'application/json' : 'text/plain';
}

function showErrors(errors, warnings) {
  const list = $('errors');
  list.innerHTML = '';
  const add = (e, cls) => {
    const li = document.createElement('li');
    li.className = cls;
    li.textContent = e.error;
    for (const r of e.resolutions || []) {
      const small = document.createElement('small');
      small.textContent = '→ ' + r;
      li.appendChild(small);
    }
    list.appendChild(li);
  };
  (errors || []).forEach((e) => add(e, 'error'));
  (warnings || []).forEach((e) => add(e, 'warning'));
}

let validateTimer = null;
function scheduleValidation() {
  clearTimeout(validateTimer);
  validateTimer = setTimeout(validate, 400);
}

async function validate() {
  const text = $('query').value;
  if (!text.trim()) { showErrors([]); return; }
  try {
    const res = await api('/queries/validate-query', { method: 'POST', headers: { 'Content-Type': contentType(text) }, body: text });
    const body = await res.json();
    if (res.ok) {
      showErrors([], body.warnings);
    } else {
      showErrors((body.meta && body.meta.errors) || [{ error: `HTTP ${res.status}` }]);
    }
  } catch (e) {
    showErrors([{ error: 'The REST service does not answer: ' + e.message }]);
  }
}

// ---------------------------------------------------------------- running a query (sse-query)

function setStatus(text) { $('status').textContent = text; }

function aggregationType(text) {
  if (!text.trim().startsWith('{')) {
    const t = text.toUpperCase();
    if (/COUNT\s*\(\s*DISTINCT/.test(t)) return 'COUNT DISTINCT';
    if (/\bTOP\s*\(/.test(t)) return 'TOP K';
    if (/\b(QUANTILE|FREQ|CUMFREQ)\s*\(/.test(t)) return 'DISTRIBUTION';
    if (/GROUP\s+BY|\b(COUNT|SUM|AVG|MIN|MAX)\s*\(/.test(t)) return 'GROUP';
    return 'RAW';
  }
  try {
    const q = JSON.parse(text);
    return ((q.aggregation && q.aggregation.type) || 'RAW').toUpperCase();
  } catch (e) {
    return 'RAW';
  }
}

async function run() {
  if (state.controller) { // the running query stops and is remembered as stopped before the new one starts
    stop();
    finish('stopped');
  }
  const text = $('query').value;
  hooks.run.forEach((f) => f(text));
  state.windows = [];
  state.current = -1;
  state.type = aggregationType(text);
  renderResults();
  showErrors([]);
  const controller = new AbortController();
  state.controller = controller;
  const current = () => state.controller === controller; // false once another run replaced this one
  $('run').disabled = true;
  setStatus('submitting…');
  let res;
  try {
    res = await api('/queries/sse-query', { method: 'POST', headers: { 'Content-Type': contentType(text) }, body: text, signal: controller.signal });
  } catch (e) {
    if (current()) finish('could not reach the REST service: ' + e.message);
    return;
  }
  if (!current()) return;
  if (!res.ok) {
    const body = await res.json().catch(() => ({}));
    showErrors((body.meta && body.meta.errors) || [{ error: `HTTP ${res.status}` }]);
    finish(`refused (HTTP ${res.status})`);
    return;
  }
  state.queryId = res.headers.get('Bullet-Query-Id');
  $('stop').disabled = false;
  setStatus('running ' + (state.queryId || ''));
  refreshRunning();
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let cut;
      while ((cut = buffer.indexOf('\n\n')) >= 0) {
        const event = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const data = event.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trim()).join('\n');
        if (data && current()) onResult(JSON.parse(data));
      }
    }
    if (current()) finish('done');
  } catch (e) {
    if (current()) finish(controller.signal.aborted ? 'stopped' : 'stream broken: ' + e.message);
  }
}

function onResult(result) {
  state.windows.push(result);
  state.current = state.windows.length - 1;
  const errors = (result.meta && result.meta.errors) || [];
  const warnings = (result.meta && result.meta.warnings) || [];
  if (errors.length || warnings.length) showErrors(errors, warnings);
  renderResults();
  hooks.result.forEach((f) => f(result));
}

function finish(text) {
  state.controller = null;
  state.queryId = null;
  $('run').disabled = false;
  $('stop').disabled = true;
  setStatus(text);
  refreshRunning();
  hooks.finish.forEach((f) => f(text));
}

async function kill(id) {
  await api(`/queries/${encodeURIComponent(id)}`, { method: 'DELETE' }).catch(() => {});
  refreshRunning();
}

function stop() {
  const id = state.queryId;
  if (id) kill(id);
  if (state.controller) state.controller.abort();
}

// ---------------------------------------------------------------- results: tabs, table, charts, metadata

function columns(records) {
  const cols = [];
  for (const r of records) for (const k of Object.keys(r)) if (!cols.includes(k)) cols.push(k);
  return cols;
}

function cell(v) {
  if (v === null || v === undefined) return '';
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

function renderResults() {
  const tabs = $('tabs');
  tabs.innerHTML = '';
  state.windows.forEach((w, i) => {
    const b = document.createElement('button');
    const last = w.meta && w.meta.query_finish_time !== undefined;
    b.textContent = last ? 'final' : `window ${(w.meta && w.meta.window && w.meta.window.number) || i + 1}`;
    b.className = i === state.current ? 'active' : '';
    b.onclick = () => { state.current = i; renderResults(); };
    tabs.appendChild(b);
  });
  const result = state.windows[state.current];
  const records = (result && result.records) || [];
  renderTable(records);
  renderChart(records);
  renderSeries();
  $('meta').textContent = result ? JSON.stringify(result.meta || {}, null, 2) : '';
  hooks.render.forEach((f) => f(records));
}

function renderTable(records) {
  const cols = columns(records);
  const rows = records.slice();
  if (state.sort && cols.includes(state.sort.col)) {
    const { col, dir } = state.sort;
    rows.sort((a, b) => {
      const x = a[col]; const y = b[col];
      const c = typeof x === 'number' && typeof y === 'number' ? x - y : cell(x).localeCompare(cell(y));
      return dir * c;
    });
  }
  const head = $('results').tHead;
  head.innerHTML = '';
  const tr = head.insertRow();
  for (const c of cols) {
    const th = document.createElement('th');
    th.textContent = c + (state.sort && state.sort.col === c ? (state.sort.dir > 0 ? ' ▲' : ' ▼') : '');
    th.onclick = () => {
      state.sort = { col: c, dir: state.sort && state.sort.col === c ? -state.sort.dir : 1 };
      renderResults();
    };
    tr.appendChild(th);
  }
  const body = $('results').tBodies[0];
  body.innerHTML = '';
  for (const r of rows) {
    const row = body.insertRow();
    for (const c of cols) {
      const td = row.insertCell();
      td.textContent = r[c] === null ? 'null' : cell(r[c]); // a null value (a group of records without the field)
      if (r[c] === null) td.className = 'null';
    }
  }
}

const SVG = 'http://www.w3.org/2000/svg';
function svgEl(name, attrs, text) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

/** The label and the number of each row to chart, or null when the result has no such shape. */
function chartData(records) {
  if (!records.length || !['GROUP', 'TOP K', 'DISTRIBUTION', 'COUNT DISTINCT'].includes(state.type)) return null;
  const cols = columns(records);
  if (state.type === 'DISTRIBUTION') {
    const x = cols.includes('Quantile') ? 'Quantile' : 'Range';
    const y = cols.includes('Value') ? 'Value' : 'Probability';
    return { line: true, points: records.map((r) => ({ label: cell(r[x]), value: Number(r[y]) })) };
  }
  const numeric = cols.filter((c) => records.every((r) => typeof r[c] === 'number'));
  const y = numeric.find((c) => /^COUNT/i.test(c)) || numeric[0]; // the count when there is one: the first metric
  if (!y) return null;
  const labels = cols.filter((c) => c !== y && !numeric.includes(c));
  const label = (r) => labels.length ? labels.map((c) => (r[c] === null ? 'null' : cell(r[c]))).join(' / ') : y;
  return { line: false, points: records.slice(0, 50).map((r) => ({ label: label(r), value: r[y] })) };
}

function renderChart(records) {
  const box = $('chart');
  box.innerHTML = '';
  const data = chartData(records);
  if (!data) return;
  const w = 600; const h = 220; const pad = 30;
  const max = Math.max(...data.points.map((p) => (Number.isFinite(p.value) ? p.value : 0)), 1);
  const min = Math.min(0, ...data.points.map((p) => (Number.isFinite(p.value) ? p.value : 0)));
  const svg = svgEl('svg', { viewBox: `0 0 ${w} ${h}`, role: 'img', 'aria-label': 'chart', class: data.line ? 'line-chart' : 'bar-chart' });
  const n = data.points.length;
  const step = (w - 2 * pad) / Math.max(n, 1);
  const yOf = (v) => h - pad - ((v - min) / (max - min || 1)) * (h - 2 * pad);
  svg.appendChild(svgEl('line', { x1: pad, y1: h - pad, x2: w - pad, y2: h - pad, stroke: '#888' }));
  svg.appendChild(svgEl('text', { x: 2, y: pad - 8 }, String(max)));
  if (data.line) {
    const pts = data.points.map((p, i) => `${pad + i * step + step / 2},${yOf(p.value)}`).join(' ');
    svg.appendChild(svgEl('polyline', { points: pts, fill: 'none', stroke: '#2a5bd7', 'stroke-width': 2 }));
  } else {
    data.points.forEach((p, i) => {
      const y = yOf(p.value);
      const bar = svgEl('rect', { x: pad + i * step + 2, y, width: Math.max(step - 4, 1), height: h - pad - y, fill: '#2a5bd7' });
      bar.appendChild(svgEl('title', {}, `${p.label}: ${p.value}`));
      svg.appendChild(bar);
    });
  }
  data.points.forEach((p, i) => {
    if (n <= 12 || i % Math.ceil(n / 12) === 0) {
      svg.appendChild(svgEl('text', { x: pad + i * step + 2, y: h - 10 }, p.label.slice(0, 12)));
    }
  });
  box.appendChild(svg);
}

/** For windowed queries: the total of the charted number per window, as a line across windows. */
function renderSeries() {
  const box = $('series');
  box.innerHTML = '';
  const windows = state.windows.filter((r) => r.meta && r.meta.window);
  if (windows.length < 2) return;
  const totals = windows.map((r) => {
    const d = chartData(r.records || []);
    return d ? d.points.reduce((s, p) => s + (Number.isFinite(p.value) ? p.value : 0), 0) : (r.records || []).length;
  });
  const w = 600; const h = 120; const pad = 20;
  const max = Math.max(...totals, 1);
  const step = (w - 2 * pad) / Math.max(totals.length - 1, 1);
  const svg = svgEl('svg', { viewBox: `0 0 ${w} ${h}`, role: 'img', 'aria-label': 'time series', class: 'series' });
  const pts = totals.map((v, i) => `${pad + i * step},${h - pad - (v / max) * (h - 2 * pad)}`).join(' ');
  svg.appendChild(svgEl('polyline', { points: pts, fill: 'none', stroke: '#2a7d3b', 'stroke-width': 2 }));
  svg.appendChild(svgEl('text', { x: 2, y: 12 }, `per window (max ${max})`));
  box.appendChild(svg);
}

// ---------------------------------------------------------------- running queries, health, console info

async function refreshRunning() {
  try {
    const res = await api('/queries');
    if (!res.ok) return;
    const list = await res.json();
    const body = $('running').tBodies[0];
    body.innerHTML = '';
    const now = Date.now();
    for (const q of list) {
      const row = body.insertRow();
      row.insertCell().textContent = q.id;
      row.insertCell().textContent = Math.max(0, Math.round((now - q.start_time) / 1000)) + ' s';
      const b = document.createElement('button');
      b.textContent = 'Kill';
      b.onclick = () => kill(q.id);
      row.insertCell().appendChild(b);
    }
  } catch (e) {
    // the health badge says when the service is away
  }
}

async function refreshHealth() {
  const badge = $('health');
  try {
    const res = await api('/health');
    const body = await res.json();
    badge.textContent = 'health: ' + (body.status || res.status);
    badge.className = 'badge ' + (res.ok ? 'up' : 'down');
    badge.title = body.detail || '';
  } catch (e) {
    badge.textContent = 'health: unreachable';
    badge.className = 'badge down';
  }
}

async function consoleInfo() {
  try {
    const info = await (await api('/console-info')).json();
    if (info.metrics) {
      $('metrics').href = info.metrics;
      $('metrics').classList.remove('hidden');
    }
  } catch (e) {
    // optional
  }
}

// ---------------------------------------------------------------- wiring

function init() {
  const examples = $('examples');
  for (const [name, text] of Object.entries(EXAMPLES)) {
    const b = document.createElement('button');
    b.textContent = name;
    b.onclick = () => { $('query').value = JSON.stringify(JSON.parse(text), null, 2); renderEditor(); scheduleValidation(); };
    if (!text.startsWith('{')) b.onclick = () => { $('query').value = text; renderEditor(); scheduleValidation(); };
    examples.appendChild(b);
  }
  const editor = $('query');
  editor.value = JSON.stringify(JSON.parse(EXAMPLES['Seed query']), null, 2);
  editor.addEventListener('input', () => { renderEditor(); scheduleValidation(); });
  editor.addEventListener('scroll', () => { $('highlight').scrollTop = editor.scrollTop; });
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) { e.preventDefault(); run(); }
  });
  $('signin').addEventListener('submit', signIn);
  $('run').onclick = run;
  $('stop').onclick = stop;
  renderEditor();
  refreshHealth();
  refreshRunning();
  consoleInfo();
  setInterval(refreshHealth, 10000);
  setInterval(refreshRunning, 3000);
}

init();
