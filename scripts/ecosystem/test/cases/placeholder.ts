/**
 * strapi-plugin-placeholder: its register adds a `placeholder` attribute to
 * the upload plugin's file type (`strapi.plugin('upload').contentTypes.file`),
 * and its `strapi.db.lifecycles` subscriber fills it, before each file row is
 * written, with a tiny base64 image that plaiceholder makes with sharp from
 * the uploaded file (read from the public folder at the file's url).
 */
import { expect } from 'chai';
import type { EcosystemSuite } from './article-app';

/** A 2×2 PNG: red, green, blue and white pixels. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEklEQVR4nGP4z8DAAMIM/4EAAB/uBfsL2WiLAAAAAElFTkSuQmCC',
  'base64',
);

export const PLACEHOLDER: EcosystemSuite = {
  title: 'strapi-plugin-placeholder@4.4.0',
  // sharp is plaiceholder's peer, which a Strapi app has installed (Strapi's upload plugin depends on it).
  packages: { 'strapi-plugin-placeholder': '4.4.0', sharp: '0.33.5' },
  files: {
    // Its README's `size`; plaiceholder reads '/uploads/…' under `dir`, './public' of the working directory in a
    // Strapi app started from its folder, named here since the test process runs elsewhere.
    'config/plugins.js': `const path = require('path');
module.exports = () => ({
  upload: { enabled: true },
  placeholder: { enabled: true, config: { size: 10, dir: path.join(__dirname, '..', 'public') } },
});
`,
  },
  tests: {
    "fills the upload's placeholder attribute with a base64 image of the file": async (app) => {
      const token = await app.fullAccessToken();
      const form = new FormData();
      form.append('files', new Blob([PNG], { type: 'image/png' }), 'pixels.png');
      const response = await fetch(`${app.url}/api/upload`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } });
      const body = (await response.json()) as Array<Record<string, any>>;
      expect(response.status, JSON.stringify(body)).to.equal(200);
      const [file] = body;
      expect(file).to.deep.include({ name: 'pixels.png', mime: 'image/png', width: 2, height: 2 });
      expect(file.placeholder).to.match(/^data:image\/png;base64,[A-Za-z0-9+/]+=*$/);
      const row = await app.app.db.query('plugin::upload.file').findOne({ where: { id: file.id } });
      expect(row?.placeholder).to.equal(file.placeholder);
      // A text file is not an image: no placeholder.
      const text = new FormData();
      text.append('files', new Blob(['plain words'], { type: 'text/plain' }), 'note.txt');
      const plain = await fetch(`${app.url}/api/upload`, { method: 'POST', body: text, headers: { authorization: `Bearer ${token}` } });
      const [note] = (await plain.json()) as Array<Record<string, any>>;
      expect(note.placeholder).to.equal(null);
      const listed = await app.get(`/api/upload/files/${file.id}`, { token });
      expect(listed.body.placeholder).to.equal(file.placeholder);
    },
  },
};
