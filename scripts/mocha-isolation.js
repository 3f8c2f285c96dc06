/**
 * Root hooks (mocha `--require`), run when each test file ends:
 *
 * - The environment goes back to what the worker process started with. In
 *   parallel mode one worker runs file after file, and an app reads its `.env`
 *   into process.env as Strapi does (dotenv, no override): a Strapi app's
 *   JWT_SECRET would stay and outrank the next file's configured secret.
 * - No process group a test started (@tessera/testing's spawnGroup) may
 *   outlive its file: any still alive is killed whole, and the file fails,
 *   naming the commands, so a leak is seen where it is made instead of a
 *   server listening for the rest of the day.
 * - After a failed test, every browser page still open (@tessera/testing's
 *   openBrowser keeps their journals under a global symbol) is described:
 *   its address and text, its answers of 400 and above, requests without
 *   answer and page errors, so a browser step that timed out can be read
 *   from the log.
 * - With TESSERA_TEST_TIMINGS naming a file, each test file's wall time
 *   (first test begun to its last hook) and CPU seconds (the worker's and
 *   its waited-for children's) are appended to it as a JSON line:
 *   the run's slowest files are where CI's time budget is won.
 */
const started = { ...process.env };
const PROCESS_GROUPS = Symbol.for('tessera.test.processGroups');
const BROWSER_JOURNALS = Symbol.for('tessera.test.browserJournals');
/** The file of the last test begun: a root hook's failure names it (mocha shows root hooks as "{root}"). */
let currentFile;
/** When the current file's first test began, and the CPU used by then (for TESSERA_TEST_TIMINGS). */
let fileStarted;
let cpuStarted;

/**
 * CPU seconds of this worker and of its children it has waited for (Linux /proc: utime, stime, cutime, cstime), so
 * a file's cost is seen apart from how busy the machine was; undefined elsewhere.
 */
function cpuSeconds() {
  try {
    const fields = require('node:fs').readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    // After "pid (comm) ": state is field 3, utime..cstime are fields 14..17.
    return fields.slice(11, 15).reduce((sum, ticks) => sum + Number(ticks), 0) / 100;
  } catch {
    return undefined;
  }
}

function alive(pgid) {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

exports.mochaHooks = {
  beforeAll() {
    // The root suite's first child is the file's (parallel mode runs one file per root): named even if no test runs.
    currentFile = this.test?.parent?.suites?.[0]?.file ?? currentFile;
    fileStarted = Date.now();
    cpuStarted = cpuSeconds();
  },
  beforeEach() {
    currentFile = this.currentTest?.file ?? currentFile;
  },
  async afterEach() {
    const journals = globalThis[BROWSER_JOURNALS];
    if (this.currentTest?.state !== 'failed' || !journals || journals.size === 0) return;
    for (const journal of journals) {
      const told = await journal.describe().catch((error) => `(the page could not be described: ${error.message})`);
      console.log(`      what the browser page saw when "${this.currentTest.title}" failed:\n${told.replace(/^/gm, '        ')}`);
    }
  },
  afterAll() {
    if (process.env.TESSERA_TEST_TIMINGS && currentFile) {
      const line = JSON.stringify({ file: require('node:path').relative(process.cwd(), currentFile), ms: Date.now() - fileStarted, cpu: cpuStarted === undefined ? undefined : Math.round((cpuSeconds() - cpuStarted) * 10) / 10 });
      require('node:fs').appendFileSync(process.env.TESSERA_TEST_TIMINGS, `${line}\n`);
    }
    for (const key of Object.keys(process.env)) if (!(key in started)) delete process.env[key];
    Object.assign(process.env, started);

    const groups = globalThis[PROCESS_GROUPS];
    if (!groups) return;
    const left = [...groups].filter(([pgid]) => alive(pgid));
    for (const [pgid] of groups) {
      try {
        process.kill(-pgid, 'SIGKILL');
      } catch {
        // ESRCH: the group is gone.
      }
    }
    groups.clear();
    if (left.length > 0) {
      const file = currentFile ? require('node:path').relative(process.cwd(), currentFile) : 'this file';
      throw new Error(`processes left running by the tests of ${file} (their groups are now killed): ${left.map(([pgid, command]) => `${pgid} ${command}`).join('; ')}`);
    }
  },
};
