/* Folio's analytics dashboard: plain script, no build step; it reads the analytics REST API with
 * the token the user signed in with (kept in session storage, so it ends with the tab), or else
 * with the Studio's session cookie (the API decides whether the member's role reads analytics).
 * Every panel shows one report's numbers and downloads them as CSV; a click on a country, device,
 * path, referrer or status narrows every report to it (the API's filters). */
'use strict';

const TOKEN_KEY = 'folio.analyticsToken';
const LIVE_EVERY_MS = 10_000;

/** One panel per question; `rows` turns a report's result into the rows the panel shows and downloads. */
const PANELS = [
  { id: 'requests', title: 'Requests', kind: 'series', report: '', columns: ['time', 'requests'], rows: (r) => r.aggregatesPerInterval.map((a) => [a.time, a.numberOfRequests]) },
  { id: 'bytes', title: 'Bytes', kind: 'series', report: '', columns: ['time', 'bytes'], rows: (r) => r.aggregatesPerInterval.map((a) => [a.time, a.bytes]) },
  { id: 'hit-ratio', title: 'Cache hit ratio', kind: 'series', report: '', columns: ['time', 'hitRatio'], rows: (r) => r.aggregatesPerInterval.map((a) => [a.time, a.hitRatio]) },
  { id: 'status', title: 'Status classes', kind: 'bars', report: '/status', filter: 'status', columns: ['status', 'requests'], rows: (r) => buckets(r.statusClasses) },
  { id: 'paths', title: 'Top paths', kind: 'bars', report: '/path', filter: 'path', columns: ['path', 'requests'], rows: (r) => buckets(r.paths) },
  { id: 'countries', title: 'Countries', kind: 'bars', report: '/geo', filter: 'country', columns: ['country', 'requests'], rows: (r) => buckets(r.countries) },
  { id: 'devices', title: 'Devices', kind: 'bars', report: '/device', filter: 'device', columns: ['device', 'requests'], rows: (r) => buckets(r.devices) },
  { id: 'referers', title: 'Referers', kind: 'bars', report: '/referers', filter: 'referrer', columns: ['referer', 'requests'], rows: (r) => buckets(r.referers) },
  { id: 'bots', title: 'Bots', kind: 'bars', report: '/bots', columns: ['bot', 'requests'], rows: (r) => [['(people)', r.humanRequests], ...buckets(r.topBots)] },
  { id: 'entries', title: 'Top entries', kind: 'bars', report: '/entries', columns: ['entry', 'requests'], rows: (r) => r.entries.map((e) => [e.title || e.id, e.requests]) },
  { id: 'goals', title: 'Goals (visitors)', kind: 'bars', report: '/goals', empty: 'No goals defined for this distribution.', columns: ['goal', 'visitors', 'conversionRate'], rows: (r) => r.map((g) => [g.name, g.visitors, g.conversionRate]) },
  {
    id: 'funnels',
    title: 'Funnels (visitors per step)',
    kind: 'bars',
    report: '/funnels',
    empty: 'No funnels defined for this distribution.',
    columns: ['step', 'visitors', 'dropOff'],
    rows: (r) => r.flatMap((f) => f.steps.map((st, i) => [`${f.name} ${i + 1}. ${st.path}`, st.visitors, st.dropOff])),
  },
  { id: 'live', title: 'Last 30 minutes (live)', kind: 'series', report: '/realtime', live: true, columns: ['time', 'requests'], rows: (r) => r.perMinute.map((m) => [m.time, m.numberOfRequests]) },
];

const buckets = (group) => group.buckets.map((b) => [b.name, b.count]);
const $ = (id) => document.getElementById(id);

let token = sessionStorage.getItem(TOKEN_KEY);
/** A shared link's secret (/dashboard/shared/<secret>): that one distribution, without a token. */
const sharedSecret = (/^\/dashboard\/shared\/([A-Za-z0-9]+)$/.exec(location.pathname) || [])[1] || null;
/** Filters set by clicking a row or typing a pattern: name → value, as the API's query parameters. */
const filters = new Map();
const FILTER_NAMES = { country: 'country', device: 'device', path: 'path', referrer: 'referrer', status: 'status', pathPattern: 'path pattern' };
let projects = [];
let liveTimer = null;
/** Bumped by every refresh: answers of an older one are dropped. */
let generation = 0;

class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

async function api(path) {
  // without a token, the Studio's session cookie goes with the request (same origin)
  const res = await fetch(path, { headers: token && !sharedSecret ? { Authorization: `Bearer ${token}` } : {}, credentials: 'same-origin' });
  const body = await res.json().catch(() => null);
  if (!res.ok || !body || !body.success) throw new ApiError(res.status, (body && body.errors && body.errors.join(' ')) || `${res.status} ${res.statusText}`);
  return body.result;
}

function option(value, text) {
  const o = document.createElement('option');
  o.value = value;
  o.textContent = text;
  return o;
}

async function signIn(candidate) {
  token = candidate;
  try {
    projects = await api('/api/v1/projects');
  } catch (err) {
    token = null;
    sessionStorage.removeItem(TOKEN_KEY);
    $('sign-in-error').textContent = err.status === 401 || err.status === 403 ? 'This token cannot read analytics.' : `Sign-in failed: ${err.message}`;
    return;
  }
  sessionStorage.setItem(TOKEN_KEY, token);
  show('token');
}

/** Opens the dashboard signed in with a token, or with the Studio's session. */
function show(mode) {
  $('sign-in').hidden = true;
  $('dashboard').hidden = false;
  $('sign-out').hidden = mode !== 'token';
  $('session').hidden = mode !== 'session';
  $('shared').hidden = mode !== 'shared';
  $('dashboard').dataset.mode = mode;
  $('project').replaceChildren(...projects.map((p) => option(p.id, p.name)));
  fillDistributions();
  refresh();
}

/** A shared link: its one distribution, read through /api/v1/shared/<secret>/… */
async function openShared() {
  let link;
  try {
    link = await api(`/api/v1/shared/${sharedSecret}`);
  } catch (err) {
    $('sign-in').hidden = true;
    $('shared').hidden = false;
    $('shared').textContent = err.status === 404 ? 'This shared link is unknown, revoked or expired.' : `Unavailable: ${err.message}`;
    return;
  }
  projects = [{ id: 'shared', name: link.name, distributions: [{ id: link.distributionId, name: link.distributionId }] }];
  $('shared').textContent = `Shared view: ${link.name}, until ${new Date(link.expiresAt).toUTCString()}`;
  show('shared');
}

/** Without a token: the Studio's session, when its member's role reads analytics (else the API answers 403). */
async function openWithSession() {
  try {
    projects = await api('/api/v1/projects');
  } catch (err) {
    $('session-refused').hidden = err.status !== 403;
    $('sign-in').hidden = false;
    return;
  }
  show('session');
}

function fillDistributions() {
  const project = projects.find((p) => p.id === $('project').value);
  const list = project ? project.distributions : [];
  $('distribution').replaceChildren(...list.map((d) => option(d.id, d.name === d.id ? d.id : `${d.name} (${d.id})`)));
}

function signOut() {
  sessionStorage.removeItem(TOKEN_KEY);
  token = null;
  clearInterval(liveTimer);
  $('dashboard').hidden = true;
  $('sign-out').hidden = true;
  $('sign-in').hidden = false;
  $('token').value = '';
}

/** The window every panel reads (the live one reads the last 30 minutes whatever the window). */
function currentWindow() {
  const to = new Date();
  const from = new Date(to.getTime() - Number($('window').value) * 3_600_000);
  return { from: from.toISOString(), to: to.toISOString(), excludeBots: $('exclude-bots').checked };
}

function reportUrl(report, w) {
  const base = sharedSecret
    ? `/api/v1/shared/${sharedSecret}/analytics${report}`
    : `/api/v1/projects/${encodeURIComponent($('project').value)}/distributions/${encodeURIComponent($('distribution').value)}/analytics${report}`;
  const q = new URLSearchParams({ from: w.from, to: w.to, TermCount: '10' });
  if (w.excludeBots) q.set('excludeBots', 'true');
  for (const [name, value] of filters) q.set(name, value);
  // the totals are compared; the panels show the window itself
  if (report === '' && $('compare').checked) q.set('compare', 'previous');
  return `${base}?${q}`;
}

function showFilters() {
  const chips = [...filters].map(([name, value]) => {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = `${FILTER_NAMES[name]}: ${value} ✕`;
    b.setAttribute('aria-label', `Remove the filter ${FILTER_NAMES[name]} ${value}`);
    b.addEventListener('click', () => {
      filters.delete(name);
      if (name === 'pathPattern') $('path-pattern').value = '';
      refresh();
    });
    return b;
  });
  if (chips.length === 0) {
    const note = document.createElement('span');
    note.className = 'note';
    note.textContent = 'No filter: click a country, device, path, referrer or status below to narrow every report.';
    chips.push(note);
  }
  $('filters').replaceChildren(...chips);
}

function panelElement(p) {
  let el = document.querySelector(`[data-panel="${p.id}"]`);
  if (el) return el;
  el = document.createElement('section');
  el.className = 'panel';
  el.dataset.panel = p.id;
  const h = document.createElement('h2');
  const title = document.createElement('span');
  title.textContent = p.title;
  const csv = document.createElement('button');
  csv.type = 'button';
  csv.textContent = 'CSV';
  csv.dataset.csv = p.id;
  csv.addEventListener('click', () => downloadCsv(p, el));
  h.append(title, csv);
  const body = document.createElement('div');
  body.className = 'body';
  el.append(h, body);
  $('panels').append(el);
  return el;
}

async function refresh() {
  const mine = ++generation;
  const w = currentWindow();
  showFilters();
  $('filter-error').textContent = '';
  $('dashboard').dataset.filters = new URLSearchParams([...filters]).toString();
  $('dashboard').dataset.from = w.from;
  $('dashboard').dataset.to = w.to;
  $('dashboard').dataset.excludeBots = String(w.excludeBots);
  const answers = new Map();
  const fetchReport = (report) => {
    if (!answers.has(report)) answers.set(report, api(reportUrl(report, w)));
    return answers.get(report);
  };
  fetchReport('').then(
    (r) => mine === generation && showTotals(r),
    (err) => {
      if (mine !== generation) return;
      showTotals(null);
      // a filter the API refused (a bad path pattern) says why
      if (err.status === 400) $('filter-error').textContent = err.message;
    },
  );
  await Promise.all(PANELS.map((p) => showPanel(p, fetchReport(p.report), mine)));
  clearInterval(liveTimer);
  liveTimer = setInterval(() => {
    const live = PANELS.find((p) => p.live);
    showPanel(live, api(reportUrl(live.report, currentWindow())), generation);
  }, LIVE_EVERY_MS);
}

const requestsOf = (r) => r.aggregatesPerInterval.reduce((n, a) => n + a.numberOfRequests, 0);

/** "+12.5 % on the period before", or why there is no figure. */
function changeText(now, before) {
  if (before === undefined) return null;
  if (before === null) return 'no period before';
  if (before === 0) return now === 0 ? 'unchanged' : 'none the period before';
  const pct = (100 * (now - before)) / before;
  return `${pct >= 0 ? '+' : '−'}${Math.abs(pct).toFixed(1)} % on the period before`;
}

function showTotals(r) {
  const p = r && 'previous' in r ? r.previous : undefined;
  const before = (f) => (p === undefined ? undefined : p === null ? null : f(p));
  const cells = r
    ? [
        ['Requests', requestsOf(r).toLocaleString('en'), changeText(requestsOf(r), before(requestsOf))],
        ['Bytes', formatBytes(r.totalBytes), changeText(r.totalBytes, before((x) => x.totalBytes))],
        ['Unique visitors', r.uniqueVisitors.toLocaleString('en'), changeText(r.uniqueVisitors, before((x) => x.uniqueVisitors))],
        ['Cache hit ratio', r.hits + r.misses === 0 ? '–' : `${((100 * r.hits) / (r.hits + r.misses)).toFixed(1)} %`, null],
        ['Bot requests', r.botRequests.toLocaleString('en'), changeText(r.botRequests, before((x) => x.botRequests))],
      ]
    : [['Totals', 'unavailable', null]];
  $('totals').replaceChildren(
    ...cells.map(([name, value, change]) => {
      const d = document.createElement('div');
      d.className = 'total';
      const b = document.createElement('b');
      b.textContent = value;
      d.append(b, name);
      if (change) {
        const c = document.createElement('span');
        c.className = 'change';
        c.textContent = change;
        d.append(c);
      }
      return d;
    }),
  );
}

/** 1.2k, 34M: axis labels that fit. */
const compact = (v) => (v === null ? '' : new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 2 }).format(v));

function formatBytes(n) {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let i = 0;
  while (n >= 1000 && i < units.length - 1) {
    n /= 1000;
    i++;
  }
  return `${n.toFixed(i === 0 ? 0 : 1)} ${units[i]}`;
}

async function showPanel(p, answer, mine) {
  const el = panelElement(p);
  const body = el.querySelector('.body');
  el.dataset.state = 'loading';
  let rows;
  try {
    rows = p.rows(await answer);
  } catch (err) {
    if (mine !== generation) return;
    const note = document.createElement('p');
    note.className = 'note error';
    note.textContent = `Unavailable: ${err.message}`;
    body.replaceChildren(note);
    el.dataset.state = 'error';
    return;
  }
  if (mine !== generation) return;
  el.rows = rows;
  el.dataset.points = String(rows.length);
  body.replaceChildren();
  if (rows.length === 0) {
    const note = document.createElement('p');
    note.className = 'note';
    note.textContent = p.empty || 'No traffic in this window.';
    body.append(note);
  } else if (p.kind === 'series') {
    drawSeries(p, body, rows);
  } else {
    drawBars(body, rows, p.filter);
  }
  el.dataset.state = 'ready';
}

function drawSeries(p, body, rows) {
  const xs = rows.map((r) => Date.parse(r[0]) / 1000);
  const ys = rows.map((r) => r[1]);
  const width = Math.max(200, body.clientWidth || 400);
  const chart = new uPlot(
    {
      width,
      height: 180,
      legend: { show: false },
      scales: { x: { time: true } },
      // the reports' intervals are UTC days and hours: so are the axis labels
      tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
      axes: [{}, { size: 56, values: (_u, values) => values.map(compact) }],
      series: [{}, { label: p.columns[1], stroke: '#3f6fd8', fill: 'rgba(63, 111, 216, 0.12)', points: { show: rows.length <= 60 } }],
    },
    [xs, ys],
    body,
  );
  // a chart drawn wide follows its panel when the window narrows (a phone turned, a resized tab)
  const resized = new ResizeObserver(() => {
    if (!body.isConnected || !body.contains(chart.root)) return resized.disconnect();
    chart.setSize({ width: Math.max(200, body.clientWidth), height: 180 });
  });
  resized.observe(body);
}

/** Narrows every report to one value of a breakdown (the drill-down). */
function drill(filter, value) {
  filters.set(filter, value);
  refresh();
}

function drawBars(body, rows, filter) {
  const max = Math.max(1, ...rows.map((r) => r[1]));
  const list = document.createElement('ol');
  list.className = 'bars';
  for (const [name, count] of rows) {
    const li = document.createElement('li');
    li.className = 'bar';
    // a breakdown's row narrows every report to it; "(people)" and the like name no value
    const drillable = filter && !filters.has(filter) && !/^\(.*\)$/.test(name);
    const label = document.createElement(drillable ? 'button' : 'span');
    label.className = 'name';
    label.textContent = name;
    label.title = drillable ? `Show only ${FILTER_NAMES[filter]} ${name}` : name;
    if (drillable) {
      label.type = 'button';
      label.addEventListener('click', () => drill(filter, name));
    }
    const track = document.createElement('span');
    track.className = 'track';
    const fill = document.createElement('span');
    fill.className = 'fill';
    fill.style.display = 'block';
    fill.style.width = `${(100 * count) / max}%`;
    track.append(fill);
    const n = document.createElement('span');
    n.className = 'count';
    n.textContent = count.toLocaleString('en');
    li.append(label, track, n);
    list.append(li);
  }
  body.append(list);
}

/**
 * RFC 4180: a field with a comma, quote or line break is quoted, its quotes doubled. A text that
 * begins with = + - @, a tab or a carriage return (a referrer host `=1+2`, a path a visitor chose)
 * would be evaluated as a formula by a spreadsheet: it gets a leading ' (OWASP, CSV injection), so
 * it is shown as the text it is. Numbers (a negative one too) are written as they are.
 */
const csvField = (v) => {
  const raw = v === null || v === undefined ? '' : String(v);
  const s = typeof v === 'string' && /^[=+\-@\t\r]/.test(raw) ? `'${raw}` : raw;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

function downloadCsv(p, el) {
  const lines = [p.columns, ...(el.rows || [])].map((row) => row.map(csvField).join(','));
  const blob = new Blob([lines.join('\r\n') + '\r\n'], { type: 'text/csv' });
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = `${$('distribution').value}-${p.id}.csv`;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

$('sign-in').addEventListener('submit', (e) => {
  e.preventDefault();
  $('sign-in-error').textContent = '';
  signIn($('token').value.trim());
});
$('sign-out').addEventListener('click', signOut);
$('controls').addEventListener('submit', (e) => e.preventDefault());
$('path-pattern').addEventListener('change', () => {
  const v = $('path-pattern').value.trim();
  if (v) filters.set('pathPattern', v);
  else filters.delete('pathPattern');
  refresh();
});
$('project').addEventListener('change', () => {
  fillDistributions();
  refresh();
});
for (const id of ['distribution', 'window', 'exclude-bots', 'compare']) $(id).addEventListener('change', refresh);
$('refresh').addEventListener('click', refresh);
if (sharedSecret) openShared();
else if (token) signIn(token);
else openWithSession();
