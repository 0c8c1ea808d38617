// The schema panel (GET /api/bullet/schema: every top-level field with its type and presence, nested fields
// expandable, a search box; a click adds the field to the query) and completion of fields, functions and keywords in
// the editor (a dropdown while typing; Tab or Enter accepts, Escape closes).
'use strict';

const schemaState = { fields: [], source: '', open: false, expanded: new Set() };
const BQL_FUNCTIONS = ['COUNT', 'SUM', 'AVG', 'MIN', 'MAX', 'TOP', 'QUANTILE', 'FREQ', 'CUMFREQ', 'SIZEOF', 'CAST',
  'IF', 'TRIM', 'LOWER', 'UPPER', 'ABS', 'HASH', 'SUBSTRING', 'UNIXTIMESTAMP', 'NOW', 'EXPLODE', 'FILTER',
  'SIZEIS', 'CONTAINSKEY', 'CONTAINSVALUE'];
const BQL_KEYWORDS = ['SELECT', 'FROM', 'STREAM', 'WHERE', 'AND', 'OR', 'NOT', 'IN', 'IS', 'NULL', 'GROUP', 'BY',
  'HAVING', 'ORDER', 'ASC', 'DESC', 'LIMIT', 'WINDOWING', 'TUMBLING', 'EVERY', 'TIME', 'RECORD', 'ALL', 'FIRST', 'AS',
  'DISTINCT', 'RLIKE', 'LATERAL', 'VIEW', 'OUTER', 'BETWEEN', 'TRUE', 'FALSE'];
/** The JSON query's member names and the values its members take (SPEC §6). */
const JSON_WORDS = ['filters', 'field', 'operation', 'values', 'clauses', 'expression', 'projection', 'fields',
  'computed', 'aggregation', 'type', 'size', 'attributes', 'operations', 'newName', 'window', 'emit', 'include',
  'every', 'first', 'duration', 'postAggregations', 'RAW', 'GROUP', 'COUNT DISTINCT', 'TOP K', 'DISTRIBUTION', 'COUNT',
  'SUM', 'MIN', 'MAX', 'AVG', 'RLIKE', 'SIZEIS', 'CONTAINSKEY', 'CONTAINSVALUE', 'AND', 'OR', 'NOT', 'TIME', 'RECORD',
  'ALL', 'VALUE', 'FIELD', 'STRING', 'LONG', 'DOUBLE', 'BOOLEAN'];

// ---------------------------------------------------------------- the panel

async function loadSchema() {
  try {
    const res = await apiFetch(`${API}/schema`);
    if (!res.ok) return;
    const body = await res.json();
    schemaState.fields = body.fields || [];
    schemaState.source = body.source === 'file' ? 'from the schema file'
      : (body.ready ? `inferred from ${body.records_sampled} records` : 'sampling the stream…');
    renderSchema();
    document.dispatchEvent(new CustomEvent('bullet-schema', { detail: schemaState.fields }));
  } catch (e) {
    // the health badge says when the service is away
  }
}

function typeLabel(f) {
  return f.subtype ? `${f.type}<${f.subtype}>` : f.type;
}

function matches(f, q) {
  return !q || f.name.toLowerCase().includes(q) || (f.description || '').toLowerCase().includes(q)
    || (f.fields || []).some((s) => matches(s, q));
}

/**
 * How the query names the field at these path segments: in BQL a name that is no identifier in double quotes, a map
 * key that is none as ['key'], and [0] into a list of maps (its first map); in the JSON form the dotted path, 0 for the
 * list's first map.
 */
function queryPath(segments) {
  const json = $('query').value.trim().startsWith('{');
  let level = schemaState.fields;
  let text = '';
  let intoList = false;
  segments.forEach((name, i) => {
    const f = (level || []).find((x) => x.name === name);
    if (json) text += (i ? '.' : '') + (intoList ? '0.' : '') + name;
    else if (i === 0) text = /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : '"' + name.replace(/"/g, '""') + '"';
    else text += (intoList ? '[0]' : '') + (/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? '.' + name : "['" + name.replace(/'/g, "''") + "']");
    intoList = !!f && f.type === 'LIST';
    level = f ? f.fields : null;
  });
  return text;
}

function fieldItem(f, path, q, segments) {
  const li = document.createElement('li');
  li.className = 'schema-field';
  const row = document.createElement('div');
  row.className = 'schema-row';
  const nested = f.fields && f.fields.length;
  const toggle = document.createElement('button');
  toggle.className = 'schema-expand' + (nested ? '' : ' invisible');
  toggle.textContent = '▸';
  toggle.setAttribute('aria-label', 'Show the fields of ' + path);
  row.appendChild(toggle);
  const name = document.createElement('button');
  name.className = 'schema-name';
  name.textContent = f.name;
  name.title = (f.description ? f.description + ' — ' : '') + 'click to add ' + path + ' to the query';
  name.dataset.path = path;
  name.onclick = () => addFieldToQuery(queryPath(segments));
  row.appendChild(name);
  const type = document.createElement('span');
  type.className = 'schema-type';
  const other = f.types ? Object.keys(f.types).filter((t) => t !== f.type && t !== 'NULL') : [];
  type.textContent = typeLabel(f) + (other.length ? ' | ' + other.join(' | ') : '');
  row.appendChild(type);
  if (typeof f.presence === 'number') {
    const presence = document.createElement('span');
    presence.className = 'schema-presence';
    presence.textContent = Math.round(f.presence * 100) + '%';
    presence.title = 'present in this share of the sampled records' + (path.includes('.') ? ' (of the maps holding it)' : '');
    row.appendChild(presence);
  }
  li.appendChild(row);
  if (f.description) {
    const d = document.createElement('div');
    d.className = 'schema-description';
    d.textContent = f.description;
    li.appendChild(d);
  }
  if (nested) {
    const sub = document.createElement('ul');
    const shown = q || schemaState.expanded.has(path);
    sub.className = 'schema-fields' + (shown ? '' : ' hidden');
    for (const s of f.fields) if (matches(s, q) || matches(f, q)) sub.appendChild(fieldItem(s, path + '.' + s.name, q, segments.concat(s.name)));
    toggle.textContent = shown ? '▾' : '▸';
    toggle.onclick = () => {
      sub.classList.toggle('hidden');
      if (sub.classList.contains('hidden')) schemaState.expanded.delete(path); else schemaState.expanded.add(path);
      toggle.textContent = sub.classList.contains('hidden') ? '▸' : '▾';
    };
    li.appendChild(sub);
  }
  return li;
}

function renderSchema() {
  $('schema-source').textContent = schemaState.source;
  const q = $('schema-search').value.trim().toLowerCase();
  const list = $('schema-fields');
  list.innerHTML = '';
  for (const f of schemaState.fields) if (matches(f, q)) list.appendChild(fieldItem(f, f.name, q, [f.name]));
  if (!list.children.length) {
    const li = document.createElement('li');
    li.className = 'schema-empty';
    li.textContent = schemaState.fields.length ? 'No field matches.' : 'No fields yet: the schema appears once records flow.';
    list.appendChild(li);
  }
}

function setSchemaOpen(open) {
  schemaState.open = open;
  $('schema-panel').classList.toggle('hidden', !open);
  document.querySelector('main').classList.toggle('with-schema', open);
  $('schema-toggle').classList.toggle('active', open);
  try { localStorage.setItem('bullet.schema.open', open ? '1' : '0'); } catch (e) { /* private mode */ }
}

/** Sets the editor's text as if typed (highlighting, validation). */
function setQueryText(text) {
  $('query').value = text;
  renderEditor();
  scheduleValidation();
}

/** A BQL query gets the field in its SELECT list; an empty editor a query of it; otherwise it goes at the caret. */
function addFieldToQuery(path) {
  const editor = $('query');
  const text = editor.value;
  if (!text.trim()) {
    setQueryText(`SELECT ${path} FROM STREAM(10000, TIME) LIMIT 10`);
    return;
  }
  const select = /^\s*SELECT\s+([\s\S]*?)\s+FROM\b/i.exec(text);
  if (select && !text.trim().startsWith('{')) {
    const list = select[1].trim();
    const columns = list === '*' ? path : `${list}, ${path}`;
    const start = select.index + select[0].indexOf(select[1]);
    setQueryText(text.slice(0, start) + columns + text.slice(start + select[1].length));
    return;
  }
  const at = editor.selectionStart;
  setQueryText(text.slice(0, at) + path + text.slice(editor.selectionEnd));
  editor.selectionStart = editor.selectionEnd = at + path.length;
}

// ---------------------------------------------------------------- completion

const completion = { box: null, items: [], index: 0, start: 0 };

/**
 * The fields whose dotted path starts like the word: {match} the dotted path typed, {text} what the query writes
 * ([0] into a list of maps in BQL, .0. in the JSON form).
 */
function fieldNames(prefix, json) {
  const dot = prefix.lastIndexOf('.');
  if (dot < 0) return schemaState.fields.map((f) => ({ match: f.name, text: f.name }));
  let level = schemaState.fields;
  let f = null;
  for (const part of prefix.slice(0, dot).split('.')) {
    f = (level || []).find((x) => x.name === part);
    if (!f || !f.fields) return [];
    level = f.fields;
  }
  const head = prefix.slice(0, dot);
  const into = f.type === 'LIST' ? (json ? head + '.0.' : head + '[0].') : head + '.';
  return level.filter((x) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(x.name))
    .map((x) => ({ match: head + '.' + x.name, text: into + x.name }));
}

/**
 * What completes the word: fields, and in BQL functions and keywords, in JSON the query's member names and values
 * (COUNT DISTINCT, TOP K, ==...). A word that is already one
 * (AS, OR) comes first, so Enter keeps it instead of turning it into a longer one.
 */
function candidates(word, json) {
  const upper = word.toUpperCase();
  const lower = word.toLowerCase();
  const exact = [];
  const out = [];
  for (const n of fieldNames(word, json)) {
    if (!n.match.toLowerCase().startsWith(lower)) continue;
    (n.match === word ? exact : out).push({ text: n.text, kind: 'field' });
  }
  if (json && !word.includes('.')) {
    for (const w of JSON_WORDS) if (w.toLowerCase().startsWith(lower)) (w === word ? exact : out).push({ text: w, kind: 'keyword' });
  }
  if (!json && !word.includes('.')) {
    for (const f of BQL_FUNCTIONS) if (f.startsWith(upper)) (f === upper ? exact : out).push({ text: f + '(', kind: 'function' });
    for (const k of BQL_KEYWORDS) if (k.startsWith(upper)) (k === upper ? exact : out).push({ text: k, kind: 'keyword' });
  }
  if (!out.length) return []; // nothing longer: the word is whole
  return exact.concat(out).slice(0, 12);
}

/** Whether the caret is inside a BQL string literal ('...', a quote doubled inside). */
function insideBqlString(textBefore) {
  return (textBefore.match(/'/g) || []).length % 2 === 1;
}

function closeCompletion() {
  completion.items = [];
  if (completion.box) completion.box.classList.add('hidden');
}

function caretPosition(editor, at) {
  const before = editor.value.slice(0, at);
  const line = before.split('\n').length - 1;
  const column = at - before.lastIndexOf('\n') - 1;
  const style = getComputedStyle(editor);
  const lineHeight = parseFloat(style.lineHeight) || 19;
  const charWidth = (parseFloat(style.fontSize) || 13) * 0.6;
  return { left: parseFloat(style.paddingLeft) + column * charWidth,
    top: parseFloat(style.paddingTop) + (line + 1) * lineHeight - editor.scrollTop };
}

function showCompletion() {
  const editor = $('query');
  const at = editor.selectionStart;
  if (at !== editor.selectionEnd) { closeCompletion(); return; }
  const before = editor.value.slice(0, at);
  const json = editor.value.trim().startsWith('{');
  const m = /[A-Za-z_][A-Za-z0-9_.]*$/.exec(before);
  if (!m || (!json && insideBqlString(before))) { closeCompletion(); return; }
  const items = candidates(m[0], json);
  if (!items.length) { closeCompletion(); return; }
  completion.items = items;
  completion.index = 0;
  completion.start = at - m[0].length;
  const box = completion.box;
  box.innerHTML = '';
  items.forEach((item, i) => {
    const li = document.createElement('li');
    li.className = 'completion-item ' + item.kind + (i === 0 ? ' selected' : '');
    li.textContent = item.text;
    li.onmousedown = (e) => { e.preventDefault(); completion.index = i; acceptCompletion(); };
    box.appendChild(li);
  });
  const pos = caretPosition(editor, at);
  box.style.left = Math.min(pos.left, editor.clientWidth - 160) + 'px';
  box.style.top = pos.top + 'px';
  box.classList.remove('hidden');
}

function acceptCompletion() {
  const editor = $('query');
  const item = completion.items[completion.index];
  if (!item) return;
  const text = editor.value;
  const end = editor.selectionStart;
  editor.value = text.slice(0, completion.start) + item.text + text.slice(end);
  editor.selectionStart = editor.selectionEnd = completion.start + item.text.length;
  closeCompletion();
  renderEditor();
  scheduleValidation();
}

function completionKeys(e) {
  if (!completion.items.length || e.ctrlKey || e.metaKey || e.altKey) return;
  if (e.key === 'Tab' || e.key === 'Enter') {
    const editor = $('query');
    const typed = editor.value.slice(completion.start, editor.selectionStart);
    const item = completion.items[completion.index];
    if (e.key === 'Enter' && item && item.text.toUpperCase() === typed.toUpperCase()) {
      closeCompletion(); // the word is whole: Enter is a new line
      return;
    }
    e.preventDefault();
    acceptCompletion();
  } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
    e.preventDefault();
    const n = completion.items.length;
    completion.index = (completion.index + (e.key === 'ArrowDown' ? 1 : n - 1)) % n;
    [...completion.box.children].forEach((li, i) => li.classList.toggle('selected', i === completion.index));
  } else if (e.key === 'Escape') {
    closeCompletion();
  }
}

// ---------------------------------------------------------------- wiring

function initSchema() {
  const box = document.createElement('ul');
  box.id = 'completion';
  box.className = 'completion hidden';
  document.querySelector('.editor').appendChild(box);
  completion.box = box;
  const editor = $('query');
  editor.addEventListener('input', (e) => {
    if (e.inputType && e.inputType.startsWith('insert')) showCompletion(); else closeCompletion();
  });
  editor.addEventListener('keydown', completionKeys);
  editor.addEventListener('blur', closeCompletion);
  $('schema-search').addEventListener('input', renderSchema);
  $('schema-toggle').onclick = () => { setSchemaOpen(!schemaState.open); if (schemaState.open) loadSchema(); };
  let stored = null;
  try { stored = localStorage.getItem('bullet.schema.open'); } catch (e) { /* private mode */ }
  setSchemaOpen(stored === null || stored === '1'); // open on a first visit
  loadSchema();
  setInterval(() => { if (schemaState.open) loadSchema(); }, 15000);
}

initSchema();
