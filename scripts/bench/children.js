'use strict';
/**
 * Child processes and temp folders of a run, and their cleanup.
 *
 * Everything the run creates is registered here; `cleanup()` stops every
 * child (IPC 'stop', then SIGTERM, then SIGKILL) and removes every temp
 * folder. It runs on success, on failure and on SIGINT/SIGTERM.
 */
const { fork } = require('node:child_process');
const fs = require('node:fs');

const children = new Set();
const folders = new Set();

/**
 * Forks `script` with `env` and waits for its `{ type: 'ready' }` message.
 * Returns `{ child, url, request(message), idle() }`; `request` sends a message
 * with an id and resolves with the child's reply carrying the same id.
 */
function startChild(script, { env = {}, execArgv = [], name = script, readyTimeoutMs = 30000 } = {}) {
  const child = fork(script, [], {
    env: { ...process.env, TESSERA_LOG_LEVEL: 'silent', ...env },
    execArgv,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  children.add(child);
  child.once('exit', () => children.delete(child));

  const pending = new Map();
  let nextId = 1;
  child.on('message', (message) => {
    const resolve = message && message.id !== undefined ? pending.get(message.id) : undefined;
    if (resolve) {
      pending.delete(message.id);
      resolve(message);
    }
  });
  const request = (message) =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, resolve);
      child.send({ ...message, id }, (error) => error && reject(error));
    });

  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start within ${readyTimeoutMs} ms`)), readyTimeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited with code ${code} before it was ready`));
    });
    child.on('message', (message) => {
      if (message && message.type === 'ready') {
        clearTimeout(timer);
        resolve({ child, url: message.url, request, idle: () => request({ type: 'idle' }) });
      }
    });
  });
}

/** Stops one child gracefully; kills it if it does not exit in time. */
function stopChild(child, timeoutMs = 5000) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    if (child.connected) child.send({ type: 'stop' }, () => undefined);
    else child.kill('SIGTERM');
  });
}

function registerFolder(dir) {
  folders.add(dir);
}

let cleaning;
/** Stops every child and removes every folder; safe to call more than once. */
function cleanup() {
  cleaning ??= (async () => {
    await Promise.all([...children].map((child) => stopChild(child)));
    for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
    folders.clear();
  })();
  return cleaning;
}

/** Cleans up on Ctrl-C / kill, then exits with the conventional code. */
function cleanupOnSignals() {
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, () => {
      console.error(`\n${signal}: stopping children and removing temp folders…`);
      cleanup().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
    });
  }
}

module.exports = { startChild, stopChild, registerFolder, cleanup, cleanupOnSignals };
