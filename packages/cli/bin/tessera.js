#!/usr/bin/env node
require('../dist/src/main.js').main(process.argv.slice(2));
