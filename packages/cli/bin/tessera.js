#!/usr/bin/env node
require('../dist/src/main.js')
  .main(process.argv.slice(2))
  .then(
    (code) => process.exit(code),
    (error) => {
      process.stderr.write(`tessera: ${error && error.stack ? error.stack : error}\n`);
      process.exit(1);
    },
  );
