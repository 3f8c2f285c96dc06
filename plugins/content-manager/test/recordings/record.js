/**
 * Records Strapi 4.26.2's answers to a scenario (entries-scenario.js): run against a peer started with an
 * empty database (`SEED=0 RESET_DB=1`), after `POST /admin/register-admin`. Writes the answers, timestamps
 * replaced by "<timestamp>", next to the scenario.
 *   node record.js http://127.0.0.1:1344 <admin jwt> entries-scenario.js strapi-4.26.2-entries.json
 */
const fs = require('node:fs');
const path = require('node:path');
const [base, token, scenarioFile, outFile] = process.argv.slice(2);
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const HASHED = new Set(['hash', 'url']);
const normalise = (value) => JSON.parse(JSON.stringify(value), (key, v) => (typeof v === 'string' && (ISO.test(v) || HASHED.has(key)) ? (HASHED.has(key) ? `<${key}>` : '<timestamp>') : v));

(async () => {
  const steps = require(path.resolve(__dirname, scenarioFile));
  const recorded = [];
  const tokens = { admin: token };
  let registrationToken;
  for (const step of steps) {
    // Setup steps of the author scenario: the invitation's registration token goes into the registration, whose JWT is the author's.
    const body = step.body === undefined ? undefined : JSON.stringify(step.body).replace('<registrationToken>', registrationToken);
    // The media scenario's upload: a small text file, with the peer's full-access API token.
    const upload = step.setup === 'upload' || step.setup === 'admin-upload' ? new FormData() : undefined;
    if (step.setup === 'upload') upload.append('files', new Blob(['Notes for the cover.\n'], { type: 'text/plain' }), 'notes.txt');
    // The cover scenario's image, uploaded from the media library (the admin's own route, as its panel does).
    if (step.setup === 'admin-upload') {
      upload.append('files', new Blob([fs.readFileSync(path.resolve(__dirname, step.file))], { type: 'image/png' }), path.basename(step.file));
      upload.append('fileInfo', JSON.stringify({ name: path.basename(step.file), folder: null }));
    }
    const apiToken = step.setup === 'upload' ? fs.readFileSync(process.env.PEER_API_TOKEN_FILE ?? '/tmp/strapi4-peer/strapi4-token.txt', 'utf8').trim() : undefined;
    const response = await fetch(base + encodeURI(step.path), {
      method: step.method,
      headers: { authorization: `Bearer ${apiToken ?? tokens[step.as ?? 'admin']}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: upload ?? body,
    });
    const text = await response.text();
    let answer;
    try { answer = JSON.parse(text); } catch { answer = text; }
    if (step.setup === 'invite') registrationToken = answer.data.registrationToken;
    if (step.setup === 'register') tokens.author = answer.data.token;
    if (step.setup && response.status >= 300) throw new Error(`setup step ${step.title}: ${response.status} ${text}`);
    if (step.setup) continue;
    recorded.push({ ...step, status: response.status, answer: normalise(answer) });
  }
  fs.writeFileSync(path.resolve(__dirname, outFile), JSON.stringify({ strapi: '4.26.2', recorded }, null, 1) + '\n');
})();
