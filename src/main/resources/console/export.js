// Export of the shown result table as CSV or JSON (a download made in the browser), and a pivot of GROUP results by
// two of their columns.
'use strict';

const exportState = { records: [] };

// A text a spreadsheet would read as a formula (=, +, -, @, a tab or a carriage return first) gets a leading quote,
// so an exported record cannot run one; numbers stay numbers.
function csvCell(v) {
  let s = cell(v);
  if (typeof v === 'string' && /^[=+\-@\t\r]/.test(s)) s = "'" + s;
  return /[",\n\r]/.test(s) ? '"' + s.replace(/"/g, '""') + '"' : s;
}

function toCsv(records) {
  const cols = columns(records);
  const lines = [cols.map(csvCell).join(',')];
  for (const r of records) lines.push(cols.map((c) => csvCell(r[c])).join(','));
  return lines.join('\r\n') + '\r\n';
}

function download(name, type, text) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

function exportName(ext) {
  const w = state.windows[state.current];
  const id = (w && w.meta && w.meta.query_id) || 'result';
  const part = w && w.meta && w.meta.window && w.meta.query_finish_time === undefined ? `-window-${w.meta.window.number}` : '';
  return `bullet-${String(id).slice(0, 8)}${part}.${ext}`;
}

// ---------------------------------------------------------------- pivot

function fillSelect(select, options, chosen) {
  const before = select.value;
  select.innerHTML = '';
  for (const o of options) select.appendChild(new Option(o, o));
  select.value = options.includes(before) ? before : chosen;
}

function renderPivot(records) {
  const cols = columns(records);
  const numeric = cols.filter((c) => records.length && records.every((r) => typeof r[c] === 'number'));
  const labels = cols.filter((c) => !numeric.includes(c));
  const pivot = $('pivot');
  pivot.classList.toggle('hidden', labels.length < 2 || !numeric.length);
  if (pivot.classList.contains('hidden')) return;
  fillSelect($('pivot-rows'), labels, labels[0]);
  fillSelect($('pivot-cols'), labels, labels[1]);
  fillSelect($('pivot-values'), numeric, numeric[numeric.length - 1]);
  const rowKey = $('pivot-rows').value;
  const colKey = $('pivot-cols').value;
  const valKey = $('pivot-values').value;
  const rowValues = [...new Set(records.map((r) => cell(r[rowKey])))].sort();
  const colValues = [...new Set(records.map((r) => cell(r[colKey])))].sort().slice(0, 50);
  const sums = new Map();
  for (const r of records) {
    const k = cell(r[rowKey]) + '\u0000' + cell(r[colKey]);
    sums.set(k, (sums.get(k) || 0) + (Number(r[valKey]) || 0));
  }
  const head = $('pivot-table').tHead;
  head.innerHTML = '';
  const tr = head.insertRow();
  const corner = document.createElement('th');
  corner.textContent = `${rowKey} \\ ${colKey}`;
  tr.appendChild(corner);
  for (const c of colValues) {
    const th = document.createElement('th');
    th.textContent = c;
    tr.appendChild(th);
  }
  const body = $('pivot-table').tBodies[0];
  body.innerHTML = '';
  for (const rv of rowValues) {
    const row = body.insertRow();
    const th = document.createElement('th');
    th.textContent = rv;
    row.appendChild(th);
    for (const cv of colValues) {
      const v = sums.get(rv + '\u0000' + cv);
      row.insertCell().textContent = v === undefined ? '' : String(v);
    }
  }
}

function initExport() {
  hooks.render.push((records) => {
    exportState.records = records;
    $('export-csv').disabled = !records.length;
    $('export-json').disabled = !records.length;
    renderPivot(records);
  });
  $('export-csv').onclick = () => download(exportName('csv'), 'text/csv', toCsv(exportState.records));
  $('export-json').onclick = () => download(exportName('json'), 'application/json',
    JSON.stringify(exportState.records, null, 2));
  for (const id of ['pivot-rows', 'pivot-cols', 'pivot-values']) $(id).onchange = () => renderPivot(exportState.records);
  renderPivot([]);
}

initExport();
