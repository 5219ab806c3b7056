// The paycli sandbox dashboard's page module (served by src/sandbox/dashboard.ts; docs/sandbox-and-postbacks.md,
// "Dashboard"). Plain DOM, no framework, no text of its own: every text comes from the page's #strings block,
// in the sandbox's language. Amounts arrive already written in reais by the sandbox (integer cents behind them).
const S = JSON.parse(document.getElementById('strings').textContent);
const TOKEN = document.querySelector('meta[name="csrf-token"]').content;
const API = '/_dashboard/api';
const KINDS = ['cashin', 'cashout'];
const STATES = ['created', 'paid', 'failed', 'canceled', 'refund', 'infraction'];
const LIMIT = 50;
const view = { kind: '', state: '', offset: 0, selected: null };

const $ = (id) => document.getElementById(id);
const fill = (text, values) => text.replace(/\{(\w+)\}/g, (_, k) => String(values[k] ?? ''));
const localTime = (iso) => (iso ? new Date(iso).toLocaleString(document.documentElement.lang) : '');

/** An element with attributes and children (strings become text nodes, never HTML). */
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) node.append(c);
  return node;
}

async function getJson(path) {
  const res = await fetch(API + path, { headers: { accept: 'application/json' } });
  return res.json();
}

async function post(path) {
  const res = await fetch(API + path, { method: 'POST', headers: { 'x-csrf-token': TOKEN } });
  const body = await res.json();
  if (!res.ok) showError(fill(S.failed, { message: body.message }));
  return body;
}

function showError(text) {
  const live = $('live');
  live.textContent = text;
  live.className = 'error';
}

function renderBalance(b) {
  const dl = $('balance-values');
  dl.replaceChildren();
  for (const k of ['balance', 'retention', 'finalBalance']) {
    dl.append(el('dt', {}, S[`balance.${k}`]), el('dd', { 'data-testid': `balance-${k}` }, b[`${k}Text`]));
  }
}

function setupFilters() {
  const kind = $('filter-kind');
  kind.append(el('option', { value: '' }, S.any), ...KINDS.map((k) => el('option', { value: k }, S[`kind.${k}`])));
  const state = $('filter-state');
  state.append(el('option', { value: '' }, S.any), ...STATES.map((s) => el('option', { value: s }, S[`status.${s}`])));
  const changed = () => {
    view.kind = kind.value;
    view.state = state.value;
    view.offset = 0;
    loadList();
  };
  kind.addEventListener('change', changed);
  state.addEventListener('change', changed);
  $('transactions-head').append(...['id', 'kind', 'amount', 'state', 'created', 'order'].map((c) => el('th', { scope: 'col' }, S[`col.${c}`])));
  $('page-prev').textContent = S.prev;
  $('page-next').textContent = S.next;
  $('page-prev').addEventListener('click', () => {
    view.offset = Math.max(0, view.offset - LIMIT);
    loadList();
  });
  $('page-next').addEventListener('click', () => {
    view.offset += LIMIT;
    loadList();
  });
}

async function loadList() {
  const q = new URLSearchParams({ offset: String(view.offset), limit: String(LIMIT) });
  if (view.kind) q.set('kind', view.kind);
  if (view.state) q.set('state', view.state);
  const page = await getJson(`/transactions?${q}`);
  renderBalance(page.balance);
  const body = $('transactions-body');
  body.replaceChildren(
    ...page.transactions.map((tx) =>
      el(
        'tr',
        { 'data-testid': 'transaction-row', 'data-id': tx.id, 'data-kind': tx.kind, 'data-state': tx.status, class: tx.id === view.selected ? 'selected' : null },
        el('td', {}, el('button', { type: 'button', class: 'link', 'data-testid': 'open-transaction', onclick: () => select(tx.id) }, String(tx.id))),
        el('td', {}, S[`kind.${tx.kind}`]),
        el('td', { class: 'amount', 'data-testid': 'amount' }, tx.amount),
        el('td', {}, el('span', { class: `state state-${tx.status}` }, S[`status.${tx.status}`])),
        el('td', {}, el('time', { datetime: tx.createdAt }, localTime(tx.createdAt))),
        el('td', { class: 'order' }, tx.orderId ?? ''),
      ),
    ),
  );
  if (page.transactions.length === 0) body.append(el('tr', {}, el('td', { colspan: 6, class: 'empty' }, S.empty)));
  const from = page.total === 0 ? 0 : page.offset + 1;
  $('page-info').textContent = fill(S.pageInfo, { from, to: page.offset + page.transactions.length, total: page.total });
  $('page-prev').disabled = page.offset === 0;
  $('page-next').disabled = page.offset + page.transactions.length >= page.total;
}

async function select(id) {
  view.selected = id;
  history.replaceState(null, '', `#tx=${id}`);
  await loadDetail(true);
  for (const row of document.querySelectorAll('[data-testid="transaction-row"]')) row.classList.toggle('selected', Number(row.dataset.id) === id);
}

function qrBlock(tx) {
  if (!tx.qrCode) return null;
  const code = el('textarea', { id: 'brcode', 'data-testid': 'brcode', readonly: true, rows: 4 }, tx.qrCode);
  const copy = el('button', { type: 'button', id: 'copy-brcode', 'data-testid': 'copy-brcode' }, S.copy);
  copy.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(tx.qrCode);
    } catch {
      code.select();
      document.execCommand('copy');
    }
    copy.textContent = S.copied;
    setTimeout(() => (copy.textContent = S.copy), 2000);
  });
  return el(
    'div',
    { class: 'qr' },
    el('img', { id: 'qr-image', 'data-testid': 'qr-image', src: tx.qrImage, alt: S.qrAlt, width: 212, height: 212 }),
    el('label', { for: 'brcode' }, S.brCode),
    code,
    copy,
  );
}

function actionsBlock(tx) {
  const buttons = tx.actions.map((a) =>
    el('button', { type: 'button', class: `action action-${a}`, 'data-testid': `action-${a}`, onclick: () => post(`/transactions/${tx.id}/${a}`).then(() => loadDetail(false)) }, S[`action.${a}`]),
  );
  return el('div', { class: 'actions', role: 'group', 'aria-label': S.actions }, el('h3', {}, S.actions), buttons.length ? buttons : el('p', {}, S.noActions));
}

function postbacksBlock(tx) {
  if (tx.postbacks.length === 0) return el('div', { 'data-testid': 'postbacks' }, el('h3', {}, S.postbacks), el('p', {}, S.noPostbacks));
  return el(
    'div',
    { 'data-testid': 'postbacks' },
    el('h3', {}, S.postbacks),
    tx.postbacks.map((e) =>
      el(
        'article',
        { class: 'postback', 'data-testid': 'postback', 'data-event': e.id, 'data-state': e.state },
        el(
          'p',
          {},
          fill(S['postback.summary'], { status: S[`status.${e.status}`], url: e.url, state: S[`postback.state.${e.state}`], attempts: e.attempts }),
          ' ',
          el('button', { type: 'button', 'data-testid': 'resend', onclick: () => post(`/events/${e.id}/resend`).then(() => loadDetail(false)) }, S.resend),
        ),
        e.lastAttempts.length
          ? el(
              'table',
              { class: 'attempts' },
              el('thead', {}, el('tr', {}, ['time', 'status', 'answer'].map((c) => el('th', { scope: 'col' }, S[`attempt.${c}`])))),
              el(
                'tbody',
                {},
                e.lastAttempts
                  .slice()
                  .reverse()
                  .map((a) => el('tr', { 'data-testid': 'attempt' }, el('td', {}, localTime(a.at)), el('td', {}, a.status === null ? '—' : String(a.status)), el('td', {}, a.outcome))),
              ),
            )
          : null,
      ),
    ),
  );
}

async function loadDetail(focus) {
  const box = $('detail');
  if (view.selected === null) return;
  const tx = await getJson(`/transactions/${view.selected}`);
  if (tx.id === undefined) return showError(tx.message);
  const heading = el('h2', { id: 'detail-title', tabindex: -1 }, fill(S.detail, { id: tx.id }));
  const close = el('button', { type: 'button', id: 'detail-close', 'data-testid': 'detail-close' }, S.close);
  close.addEventListener('click', () => {
    view.selected = null;
    box.hidden = true;
    history.replaceState(null, '', '#');
  });
  const facts = [
    [S['col.kind'], S[`kind.${tx.kind}`]],
    [S['col.amount'], tx.amount],
    [S['col.state'], S[`status.${tx.status}`]],
    [S['col.created'], localTime(tx.createdAt)],
    [S.processed, localTime(tx.processedAt)],
    [S['col.order'], tx.orderId ?? '—'],
    [S.endToEnd, tx.endToEndId ?? '—'],
    [S.observation, tx.observation ?? '—'],
  ];
  box.replaceChildren(
    el('div', { class: 'detail-head' }, heading, close),
    el('dl', { 'data-testid': 'detail-facts', 'data-state': tx.status }, facts.map(([k, v]) => [el('dt', {}, k), el('dd', {}, v)])),
    qrBlock(tx),
    actionsBlock(tx),
    postbacksBlock(tx),
  );
  box.hidden = false;
  if (focus) heading.focus();
}

let pending = null;
/** Reloads the list (and the open transaction) at most every 250 ms while events arrive. */
function refreshSoon(detailToo) {
  if (detailToo) view.refreshDetail = true;
  if (pending) return;
  pending = setTimeout(async () => {
    pending = null;
    const d = view.refreshDetail;
    view.refreshDetail = false;
    await loadList();
    if (d) await loadDetail(false);
  }, 250);
}

function live() {
  const source = new EventSource(`${API}/stream`);
  const status = $('live');
  source.addEventListener('open', () => {
    status.textContent = S['live.on'];
    status.className = 'on';
  });
  source.addEventListener('error', () => {
    status.textContent = S['live.off'];
    status.className = 'off';
  });
  source.addEventListener('transaction', (m) => refreshSoon(JSON.parse(m.data).id === view.selected));
  source.addEventListener('postback', (m) => {
    if (JSON.parse(m.data).transactionId === view.selected) refreshSoon(true);
  });
}

setupFilters();
const fromHash = /^#tx=([0-9]+)$/.exec(location.hash);
await loadList();
if (fromHash) await select(Number(fromHash[1]));
live();
