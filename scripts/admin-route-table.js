#!/usr/bin/env node
/**
 * Writes docs/admin-panel.md's table of Strapi 4.26.2's admin routes from apps/example/test/admin-routes (the
 * reference lists and verdicts); apps/example/test/admin-route-table.test.ts fails while the page and the data differ.
 *
 *   node scripts/admin-route-table.js
 */
require('sucrase/register/ts');
const fs = require('node:fs');
const { DOC, readDoc, withTable } = require('../apps/example/test/admin-routes/render.ts');

fs.writeFileSync(DOC, withTable(readDoc()));
console.log(`written: ${DOC}`);
