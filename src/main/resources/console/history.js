// History and saved queries, with their last results, kept in this browser (localStorage, per token); a share link
// (#q=<urlencoded query>) opens the console with the query filled in.
'use strict';

const HISTORY_KEY = 'bullet.history';
const SAVED_KEY = 'bullet.saved';
const HISTORY_SIZE = 30;
/** A result kept with a query is cut to this many rows, so that localStorage (a few MB) holds many. */
const KEPT_ROWS = 200;
const pending = { text: null };

/**
 * Where a list is kept: with a token (the service authenticates), under a tag of the token, so that teams sharing a
 * browser profile never see each other's queries and results; without one, under the key itself.
 */
function storageKey(key) {
  const token = sessionStorage.getItem(TOKEN_KEY);
  if (!token) return key;
  let h = 0x811c9dc5; // FNV-1a: a tag, not a secret (a 32-bit hash does not give the token back)
  for (let i = 0; i < token.length; i++) {
    h ^= token.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return key + '.' + h.toString(16);
}

function readList(key) {
  try {
    const list = JSON.parse(localStorage.getItem(storageKey(key)) || '[]');
    return Array.isArray(list) ? list : [];
  } catch (e) {
    return [];
  }
}

function writeList(key, list) {
  for (let keep = list.length; keep > 0; keep = Math.floor(keep / 2)) {
    try {
      localStorage.setItem(storageKey(key), JSON.stringify(list.slice(0, keep)));
      return;
    } catch (e) {
      // over the quota: keep fewer entries
    }
  }
}

function keptResult(result) {
  if (!result) return null;
  const records = result.records || [];
  return { records: records.slice(0, KEPT_ROWS), meta: result.meta || {}, truncated: records.length > KEPT_ROWS };
}

function lastResult() {
  return keptResult(state.windows[state.windows.length - 1]);
}

function remember(text, status) {
  if (/HTTP 401/.test(status)) return; // refused for want of a token: nothing of the query's, and no tenant to keep it for
  const list = readList(HISTORY_KEY).filter((h) => h.query !== text);
  list.unshift({ query: text, time: Date.now(), status, result: lastResult() });
  writeList(HISTORY_KEY, list.slice(0, HISTORY_SIZE));
  const saved = readList(SAVED_KEY);
  const mine = saved.find((s) => s.query === text);
  if (mine) {
    mine.result = lastResult();
    mine.time = Date.now();
    writeList(SAVED_KEY, saved);
  }
  renderLists();
}

function openEntry(entry) {
  setQueryText(entry.query);
  state.type = aggregationType(entry.query);
  state.windows = entry.result ? [entry.result] : [];
  state.current = state.windows.length - 1;
  renderResults();
  const cut = entry.result && entry.result.truncated ? ` (its first ${KEPT_ROWS} rows: only those were kept)` : '';
  setStatus(entry.result ? `last result, ${new Date(entry.time).toLocaleString()}${cut}` : '');
}

function entryItem(entry, key, label) {
  const li = document.createElement('li');
  const open = document.createElement('button');
  open.className = 'query-open';
  open.textContent = label;
  open.title = entry.query;
  open.onclick = () => openEntry(entry);
  const when = document.createElement('small');
  const rows = entry.result ? `${entry.result.records.length}${entry.result.truncated ? '+' : ''} rows` : 'no result';
  when.textContent = ` ${new Date(entry.time).toLocaleTimeString()} · ${rows}`;
  const remove = document.createElement('button');
  remove.className = 'query-remove';
  remove.textContent = '✕';
  remove.setAttribute('aria-label', 'Forget this query');
  remove.onclick = () => {
    writeList(key, readList(key).filter((e) => e.query !== entry.query || e.name !== entry.name));
    renderLists();
  };
  li.append(open, when, remove);
  return li;
}

function oneLine(text) {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length > 70 ? t.slice(0, 69) + '…' : t;
}

function renderLists() {
  const saved = $('saved');
  saved.innerHTML = '';
  for (const s of readList(SAVED_KEY)) saved.appendChild(entryItem(s, SAVED_KEY, s.name || oneLine(s.query)));
  const history = $('history');
  history.innerHTML = '';
  for (const h of readList(HISTORY_KEY)) history.appendChild(entryItem(h, HISTORY_KEY, oneLine(h.query)));
}

function save() {
  const text = $('query').value;
  if (!text.trim()) return;
  const name = $('save-name').value.trim() || oneLine(text);
  const list = readList(SAVED_KEY).filter((s) => s.name !== name);
  const last = readList(HISTORY_KEY).find((h) => h.query === text);
  list.unshift({ name, query: text, time: Date.now(), result: last ? last.result : lastResult() });
  writeList(SAVED_KEY, list);
  $('save-name').value = '';
  renderLists();
}

function shareLink() {
  const url = location.origin + location.pathname + '#q=' + encodeURIComponent($('query').value);
  const box = $('share-link');
  box.value = url;
  box.classList.remove('hidden');
  box.select();
  if (navigator.clipboard) navigator.clipboard.writeText(url).catch(() => {});
  return url;
}

function openSharedQuery() {
  if (!location.hash.startsWith('#q=')) return;
  try {
    setQueryText(decodeURIComponent(location.hash.slice(3)));
  } catch (e) {
    showErrors([{ error: 'The share link is damaged: ' + e.message, resolutions: ['Ask for the link again'] }]);
  }
}

function initHistory() {
  hooks.run.push((text) => { pending.text = text; });
  hooks.finish.push((status) => {
    if (pending.text !== null) remember(pending.text, status);
    pending.text = null;
  });
  $('save').onclick = save;
  $('share').onclick = shareLink;
  window.addEventListener('hashchange', openSharedQuery);
  renderLists();
  openSharedQuery();
}

initHistory();
