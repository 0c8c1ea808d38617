// The query builder for the common case: fields, filters, an aggregation (GROUP BY + COUNT, COUNT, COUNT DISTINCT,
// TOP K), a tumbling window and the duration. "Write BQL" puts the query in the editor, where it can be edited on.
'use strict';

const FILTER_OPS = ['=', '!=', '>', '>=', '<', '<=', 'RLIKE', 'IS NULL', 'IS NOT NULL'];

function bqlName(name) {
  return /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)*$/.test(name) ? name : '"' + name.replace(/"/g, '""') + '"';
}

function schemaTypeOf(path) {
  let level = schemaState.fields;
  let f = null;
  for (const part of path.split('.')) {
    f = (level || []).find((x) => x.name === part);
    if (!f) return null;
    level = f.fields;
  }
  return f.type;
}

/** A literal for a filter value: a number stays a number on a numeric field (or with no schema), else a string. */
function bqlLiteral(field, value) {
  const type = schemaTypeOf(field);
  const numeric = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(value.trim());
  if (numeric && (type === null || ['LONG', 'INTEGER', 'DOUBLE', 'FLOAT'].includes(type))) return value.trim();
  if (/^(true|false)$/i.test(value.trim()) && type === 'BOOLEAN') return value.trim().toLowerCase();
  return "'" + value.replace(/'/g, "''") + "'"; // BQL doubles a quote; a backslash is itself
}

function builderFields() {
  return $('b-fields').value.split(',').map((s) => s.trim()).filter((s) => s);
}

function filterRow() {
  const row = document.createElement('div');
  row.className = 'builder-filter';
  const field = document.createElement('input');
  field.className = 'b-filter-field';
  field.setAttribute('list', 'b-field-names');
  field.placeholder = 'field';
  const op = document.createElement('select');
  op.className = 'b-filter-op';
  for (const o of FILTER_OPS) op.appendChild(new Option(o, o));
  const value = document.createElement('input');
  value.className = 'b-filter-value';
  value.placeholder = 'value';
  op.onchange = () => { value.disabled = op.value.startsWith('IS'); };
  const remove = document.createElement('button');
  remove.type = 'button';
  remove.textContent = '✕';
  remove.setAttribute('aria-label', 'Remove this filter');
  remove.onclick = () => row.remove();
  row.append(field, op, value, remove);
  return row;
}

/** The builder's query in BQL. */
function builderBql() {
  const agg = $('b-agg').value;
  const fields = builderFields().map(bqlName);
  const limit = Math.max(1, parseInt($('b-limit').value, 10) || 10);
  const duration = Math.max(1, parseInt($('b-duration').value, 10) || 10) * 1000;
  const every = Math.max(0, parseInt($('b-window').value, 10) || 0) * 1000;
  let select;
  if (agg === 'GROUP') select = fields.concat(['COUNT(*)']).join(', ');
  else if (agg === 'COUNT') select = 'COUNT(*)';
  else if (agg === 'COUNT DISTINCT') select = `COUNT(DISTINCT ${fields.join(', ') || 'id'})`;
  else if (agg === 'TOP K') select = `TOP(${limit}, ${fields.join(', ') || 'id'})`;
  else select = fields.join(', ') || '*';
  const where = [];
  for (const row of document.querySelectorAll('#b-filters .builder-filter')) {
    const field = row.querySelector('.b-filter-field').value.trim();
    const op = row.querySelector('.b-filter-op').value;
    if (!field) continue;
    if (op.startsWith('IS')) where.push(`${bqlName(field)} ${op}`);
    else where.push(`${bqlName(field)} ${op} ${bqlLiteral(field, row.querySelector('.b-filter-value').value)}`);
  }
  let bql = `SELECT ${select} FROM STREAM(${duration}, TIME)`;
  if (where.length) bql += ` WHERE ${where.join(' AND ')}`;
  if (agg === 'GROUP' && fields.length) bql += ` GROUP BY ${fields.join(', ')}`;
  if (every > 0) bql += ` WINDOWING TUMBLING(${every}, TIME)`;
  if (agg === 'RAW' || agg === 'GROUP') bql += ` LIMIT ${limit}`;
  return bql;
}

function fillFieldNames(fields) {
  const list = $('b-field-names');
  list.innerHTML = '';
  const add = (fs, prefix) => {
    for (const f of fs) {
      list.appendChild(new Option(prefix + f.name));
      if (f.type === 'MAP' && f.fields && !prefix) add(f.fields, f.name + '.');
    }
  };
  add(fields, '');
}

function initBuilder() {
  $('b-add-filter').onclick = () => $('b-filters').appendChild(filterRow());
  $('b-write').onclick = () => setQueryText(builderBql());
  document.addEventListener('bullet-schema', (e) => fillFieldNames(e.detail));
}

initBuilder();
