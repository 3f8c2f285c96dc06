// Part of the admin-settings recording (see make-json.mjs for the steps).
import http from 'node:http';
const log = [];
http.createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    if (req.url === '/log') { res.setHeader('content-type', 'application/json'); res.end(JSON.stringify(log)); return; }
    log.push({ url: req.url, method: req.method, headers: req.headers, body });
    if (req.url.startsWith('/fail')) { res.statusCode = 500; res.end('receiver broke'); return; }
    if (req.url.startsWith('/teapot')) { res.statusCode = 418; res.end('short and stout'); return; }
    res.statusCode = 200; res.end('ok');
  });
}).listen(1348, '127.0.0.1');
