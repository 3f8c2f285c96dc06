import fs from 'node:fs';
import { bootFolder, stopFolderApp } from '/work/main/scripts/ecosystem/test/apps/app-folder';
import { makeTemplateApp } from '/work/main/scripts/ecosystem/test/apps/template-app';
describe('t', function () { this.timeout(900000); it('x', async () => {
  const dir = makeTemplateApp('@strapi/template-blog@2.0.5', 'blog');
  const b = dir + '/src/bootstrap.js';
  let s = fs.readFileSync(b, 'utf8');
  s = s.replace('async function uploadFile(file, name) {\n  return strapi', 'async function uploadFile(file, name) { const t = Date.now(); try { return await strapi').replace(/    \}\);\n\}\n\n\/\/ Create an entry/, '    }); } finally { console.log("upload", name, Date.now() - t); }\n}\n\n// Create an entry');
  s = s.replace('async function createEntry({ model, entry }) {\n  try {', 'async function createEntry({ model, entry }) { const t = Date.now();\n  try {').replace('    console.error({ model, entry, error });\n  }', '    console.error({ model, entry, error });\n  } console.log("create", model, Date.now() - t);');
  fs.writeFileSync(b, s);
  const t = Date.now(); const app = await bootFolder(dir, 'sqlite'); console.log('boot', Date.now() - t); await stopFolderApp(app);
});});
