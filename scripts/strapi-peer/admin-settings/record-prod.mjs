// Part of the admin-settings recording (see make-json.mjs for the steps).
const BASE = 'http://127.0.0.1:1347';
const out = [];
async function call(label, method, path, body, token) {
  const headers = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(BASE + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  let json; try { json = JSON.parse(text); } catch { json = text; }
  out.push({ label, method, path, body, status: res.status, response: json });
  return { status: res.status, json };
}
const reg = await call('register', 'POST', '/admin/register-admin', { email: 'rec@example.com', password: 'Recorder123', firstname: 'Rec', lastname: 'Order' });
const T = reg.json.data.token;
for (const [label, url] of [['loopback', 'http://127.0.0.1:1348/ok'], ['localhost', 'http://localhost:1348/ok'], ['metadata', 'http://169.254.169.254/latest'], ['private', 'http://10.1.2.3/hook'], ['public name', 'https://example.com/hook'], ['ipv6 loopback', 'http://[::1]:1348/ok']]) {
  await call(`production create ${label}`, 'POST', '/admin/webhooks', { name: label, url, headers: {}, events: [] }, T);
}
await call('transfer: list (salt missing)', 'GET', '/admin/transfer/tokens', undefined, T);
process.stdout.write(JSON.stringify({ calls: out }, null, 2));
