/**
 * The pages e-mailed links lead to when no site front end serves them: the sandbox's stand-in for a site
 * without a `frontend_url` (`SandboxSite`), and the staff pages every mode serves for admins' and
 * superadmins' links (`mountStaffPages`). Plain HTML whose script calls this service's own API from the same
 * origin, as a real front end would: endpoint 1, `POST /auth/magic-link/verify`, `GET /users/me/entries`. The
 * session is kept in the browser's localStorage, per site.
 */
export interface SitePage {
  siteId: string;
  siteName: string;
  /** Where the site's pages live, e.g. `/sandbox/sites/main`. */
  base: string;
  /** Where a sign-in lands (the site's entries page when unset). */
  home?: string;
  /** The line above every page, as HTML: a constant, never user input (the sandbox's own when unset). */
  note?: string;
  /** A sign-in also authorises this service's API console (`/docs`, which keeps its authorisation). */
  console?: boolean;
}

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Values handed to the page's script, safe inside a <script> element. */
const scriptJson = (value: unknown): string => JSON.stringify(value).replace(/</g, '\\u003c');

function layout(p: SitePage, title: string, body: string, script: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>${escapeHtml(title)} · ${escapeHtml(p.siteName)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;line-height:1.5}
label{display:block;margin:.75rem 0}input{font-size:1rem;padding:.4rem;width:100%;box-sizing:border-box}
button{font-size:1rem;padding:.5rem 1.25rem;margin:.5rem .5rem 0 0}table{border-collapse:collapse;width:100%}
td,th{text-align:left;padding:.3rem .5rem;border-bottom:1px solid #ddd}.note{color:#555;font-size:.9rem}
#message{font-weight:600}</style></head>
<body><header class="note">${escapeHtml(p.siteName)} · ${
    p.note ?? 'sandbox front end served by the API, for sites without a <code>frontend_url</code>'
  }</header>
<main>${body}</main>
<script>
const PAGE = ${scriptJson(p)};
const KEY = 'sandbox-session:' + PAGE.siteId;
const say = (text) => { document.getElementById('message').textContent = text; };
const problemText = (body) => body && (body.errors && body.errors.length
  ? body.errors.map((e) => e.field + ': ' + e.message).join('; ')
  : body.detail) || 'Something went wrong.';
async function call(method, path, body, token) {
  const headers = { 'Content-Type': 'application/json' };
  if (token) headers.Authorization = 'Bearer ' + token;
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { ok: res.ok, status: res.status, body: text ? JSON.parse(text) : null };
}
const tokenOf = () => new URLSearchParams(location.search).get('token');
${script}
</script></body></html>`;
}

/** `set-password` and `reset-password`: choose a password with the e-mailed token, then sign in. */
export function passwordPage(p: SitePage, reset: boolean): string {
  return layout(
    p,
    reset ? 'Choose a new password' : 'Set your password',
    `<h1>${reset ? 'Choose a new password' : 'Set your password'}</h1>
<p>${
      reset
        ? 'Choose a new password for your account.'
        : `An account was made for you on ${escapeHtml(p.siteName)}. Choose a password to sign in.`
    }</p>
<form id="password-form"><label>Password (10 to 128 characters)
<input type="password" name="password" id="password" minlength="10" maxlength="128" required autocomplete="new-password"></label>
<button type="submit">${reset ? 'Save my new password' : 'Set my password'}</button></form>
<p id="message" role="status"></p>`,
    `document.getElementById('password-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const res = await call('POST', '/auth/password-set/confirm', {
    token: tokenOf(), password: document.getElementById('password').value,
  });
  if (!res.ok) { say(problemText(res.body)); return; }
  say(res.body.message + ' Signing you in…');
  location.assign(res.body.activation_link);
});`,
  );
}

/** `magic-link`: exchanges the sign-in link's token for a session, then shows the entries. */
export function magicLinkPage(p: SitePage): string {
  return layout(
    p,
    'Signing you in',
    `<h1>Signing you in…</h1><p id="message" role="status"></p>`,
    `(async () => {
  const res = await call('POST', '/auth/magic-link/verify', { token: tokenOf() });
  if (!res.ok) { say(problemText(res.body) + ' Ask for a new sign-in link.'); return; }
  localStorage.setItem(KEY, JSON.stringify(res.body));
  if (PAGE.console) localStorage.setItem('authorized', JSON.stringify({ bearer: {
    name: 'bearer', schema: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }, value: res.body.access_token,
  } }));
  location.replace(PAGE.home || PAGE.base + '/');
})();`,
  );
}

/** The site's home: my entries once signed in; else sign in by password or by an e-mailed link. */
export function entriesPage(p: SitePage): string {
  return layout(
    p,
    'My entries',
    `<h1 id="title">My entries</h1>
<section id="signed-in" hidden><p>Signed in as <strong id="who"></strong>.
<button type="button" id="sign-out">Sign out</button></p>
<table><thead><tr><th>Raffle</th><th>Tickets</th><th>How</th><th>When</th></tr></thead><tbody id="entries"></tbody></table>
<p id="none" hidden>No entries yet.</p></section>
<section id="signed-out" hidden><p>Sign in to see your entries.</p>
<form id="sign-in"><label>E-mail <input type="email" id="email" required autocomplete="email"></label>
<label>Password <input type="password" id="login-password" autocomplete="current-password"></label>
<button type="submit">Sign in</button><button type="button" id="send-link">E-mail me a sign-in link</button></form></section>
<p id="message" role="status"></p>`,
    `const session = () => JSON.parse(localStorage.getItem(KEY) || 'null');
async function authed(path) {
  let s = session();
  if (!s) return null;
  let res = await call('GET', path, undefined, s.access_token);
  if (res.status === 401) {
    const renewed = await call('POST', '/auth/refresh', { refresh_token: s.refresh_token });
    if (!renewed.ok) { localStorage.removeItem(KEY); return null; }
    localStorage.setItem(KEY, JSON.stringify(renewed.body));
    res = await call('GET', path, undefined, renewed.body.access_token);
  }
  return res.ok ? res.body : null;
}
function cell(row, text) { const td = document.createElement('td'); td.textContent = text; row.appendChild(td); }
async function show() {
  const me = await authed('/users/me');
  document.getElementById('signed-in').hidden = !me;
  document.getElementById('signed-out').hidden = !!me;
  if (!me) return;
  document.getElementById('who').textContent = me.email;
  const entries = (await authed('/users/me/entries?limit=100')) || [];
  const body = document.getElementById('entries');
  body.replaceChildren();
  for (const e of entries) {
    const row = document.createElement('tr');
    cell(row, e.raffle ? e.raffle.name : e.raffle_id);
    cell(row, e.ticket_from === e.ticket_to ? String(e.ticket_from) : e.ticket_from + '–' + e.ticket_to);
    cell(row, e.method);
    cell(row, new Date(e.created_at).toLocaleString());
    body.appendChild(row);
  }
  document.getElementById('none').hidden = entries.length > 0;
}
document.getElementById('sign-in').addEventListener('submit', async (event) => {
  event.preventDefault();
  const res = await call('POST', '/auth/login', {
    email: document.getElementById('email').value,
    password: document.getElementById('login-password').value,
    site_id: PAGE.siteId,
  });
  if (!res.ok) { say(problemText(res.body)); return; }
  localStorage.setItem(KEY, JSON.stringify(res.body));
  say('');
  await show();
});
document.getElementById('send-link').addEventListener('click', async () => {
  const res = await call('POST', '/auth/magic-link', { email: document.getElementById('email').value, site_id: PAGE.siteId });
  say(res.ok ? res.body.message + ' In the sandbox it is in the outbox (GET /admin/outbox).' : problemText(res.body));
});
document.getElementById('sign-out').addEventListener('click', async () => {
  const s = session();
  if (s) await call('POST', '/auth/logout', { refresh_token: s.refresh_token });
  localStorage.removeItem(KEY);
  await show();
});
show();`,
  );
}
