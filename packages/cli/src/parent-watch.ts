/**
 * A server started through npm stops when npm is stopped. `npx tessera start`
 * is npm exec → `sh -c` → node: SIGTERM to npm ends npm and the shell, which
 * does not pass the signal on, and node — reparented — kept serving. So a
 * `develop` or `start` that npm started (npm sets `npm_command`) checks its
 * parent once a second and, once the parent is gone, stops exactly as on
 * SIGTERM. Started any other way (`tessera start &`, systemd, a container's
 * command) nothing is watched: a shell that backgrounds the server and exits
 * has not asked it to stop.
 */
const CHECK_EVERY_MS = 1000;

/** Starts watching when npm started this process; returns what stops the watch. */
export function stopWhenParentGone(env: NodeJS.ProcessEnv = process.env): () => void {
  if (env.npm_command === undefined) return () => undefined;
  const parent = process.ppid;
  const timer = setInterval(() => {
    // process.ppid is read from the kernel each time: it changes when the parent exits and we are reparented.
    if (process.ppid === parent) return;
    clearInterval(timer);
    process.stderr.write(`[tessera] the process npm started this server under (pid ${parent}) has gone: stopping\n`);
    process.kill(process.pid, 'SIGTERM');
  }, CHECK_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
