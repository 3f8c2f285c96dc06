/**
 * The explorer: GraphiQL, served by Tessera itself from the npm packages
 * (graphiql, react, react-dom) under `<endpoint>/explorer/`, so it works on
 * a machine with no network and under a CSP that only allows `'self'`
 * (the page has no inline script; its start-up code is a file too).
 */
import fs from 'node:fs';
import path from 'node:path';

interface Asset {
  file: string;
  type: string;
}

const ASSETS: Record<string, Asset> = {
  'react.js': { file: 'react/umd/react.production.min.js', type: 'text/javascript; charset=utf-8' },
  'react-dom.js': { file: 'react-dom/umd/react-dom.production.min.js', type: 'text/javascript; charset=utf-8' },
  'graphiql.js': { file: 'graphiql/graphiql.min.js', type: 'text/javascript; charset=utf-8' },
  'graphiql.css': { file: 'graphiql/graphiql.min.css', type: 'text/css; charset=utf-8' },
};

/** Mounts GraphiQL on the page, talking to the endpoint named by its script tag. */
const START_SCRIPT = `(function () {
  var endpoint = document.currentScript.getAttribute('data-endpoint');
  var fetcher = GraphiQL.createFetcher({ url: endpoint });
  var root = ReactDOM.createRoot(document.getElementById('graphiql'));
  root.render(React.createElement(GraphiQL, { fetcher: fetcher, defaultEditorToolbarOpen: true }));
})();
`;

const PAGE_STYLE = 'html, body, #graphiql { height: 100%; margin: 0; overflow: hidden; }\n';

export class Explorer {
  private readonly cache = new Map<string, Buffer>();

  constructor(private readonly endpoint: string) {}

  get assetPath(): string {
    return `${this.endpoint}/explorer/:asset`;
  }

  page(): string {
    const base = `${this.endpoint}/explorer`;
    return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>GraphiQL · Tessera</title>
<link rel="stylesheet" href="${base}/graphiql.css">
<link rel="stylesheet" href="${base}/page.css">
</head>
<body>
<div id="graphiql">Loading…</div>
<script src="${base}/react.js"></script>
<script src="${base}/react-dom.js"></script>
<script src="${base}/graphiql.js"></script>
<script src="${base}/start.js" data-endpoint="${this.endpoint}"></script>
</body>
</html>
`;
  }

  /** An asset by its public name, or undefined. Read once, then kept in memory. */
  asset(name: string): { body: Buffer; type: string } | undefined {
    if (name === 'start.js') return { body: Buffer.from(START_SCRIPT), type: 'text/javascript; charset=utf-8' };
    if (name === 'page.css') return { body: Buffer.from(PAGE_STYLE), type: 'text/css; charset=utf-8' };
    const asset = ASSETS[name];
    if (!asset) return undefined;
    let body = this.cache.get(name);
    if (!body) {
      body = fs.readFileSync(resolvePackageFile(asset.file));
      this.cache.set(name, body);
    }
    return { body, type: asset.type };
  }
}

function resolvePackageFile(file: string): string {
  const [packageName, ...rest] = file.split('/');
  const packageJson = require.resolve(`${packageName}/package.json`);
  return path.join(path.dirname(packageJson), ...rest);
}
