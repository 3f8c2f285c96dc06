/**
 * strapi-plugin-ezforms: `POST /api/ezforms/submit` stores a form submission
 * in its own type and mails each recipient stored in its other type through
 * `strapi.plugins['email'].services.email` (here @strapi/provider-email-nodemailer,
 * to a real SMTP server on a loopback port). Its schemas are written loosely
 * (`kind` inside `info`, `min`/`max` on strings), as Strapi accepts them.
 */
import { expect } from 'chai';
import { TestSmtp } from '@tessera/testing';
import type { CaseService } from '../harness';
import { ARTICLE_APP, type EcosystemSuite } from './article-app';

let smtp: TestSmtp | undefined;

async function startSmtp(): Promise<CaseService> {
  smtp = new TestSmtp();
  await smtp.start();
  const server = smtp;
  return { env: { SMTP_PORT: String(server.port) }, stop: () => server.stop() };
}

export const EZFORMS: EcosystemSuite = {
  title: 'strapi-plugin-ezforms@0.1.7 mailing through @strapi/provider-email-nodemailer@4.26.2',
  packages: { 'strapi-plugin-ezforms': '0.1.7', '@strapi/provider-email-nodemailer': '4.26.2' },
  service: startSmtp,
  files: {
    ...ARTICLE_APP,
    // Its documentation: no captcha, the email notification provider on; the public may submit.
    'config/plugins.js': `module.exports = ({ env }) => ({
  ezforms: {
    config: {
      captchaProvider: { name: 'none' },
      notificationProviders: [{ name: 'email', enabled: true, config: { from: 'forms@example.com', subject: 'A new message' } }],
    },
  },
  email: {
    config: { provider: 'nodemailer', providerOptions: { host: '127.0.0.1', port: env.int('SMTP_PORT'), secure: false, ignoreTLS: true } },
  },
});
`,
    'config/permissions.js': `module.exports = { public: ['plugin::ezforms.submitController.index'] };`,
    // The recipients its admin panel would list (it stores them in its own type).
    'src/index.js': `module.exports = {
  async bootstrap({ strapi }) {
    await strapi.entityService.create('plugin::ezforms.recipient', { data: { name: 'Desk', email: 'desk@example.com' } });
  },
};
`,
  },
  tests: {
    'stores a public submission and mails it to each recipient': async (app) => {
      const before = smtp!.mails.length;
      const formData = { name: 'Ada', message: 'Hello there', topics: ['a', 'b'] };
      const response = await app.post('/api/ezforms/submit', { formData });
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      // It answers the form data itself.
      expect(response.body).to.deep.equal(formData);
      const stored = await app.app.db.query('plugin::ezforms.submission').findMany({});
      // No captcha: the score is -1, stored in its string column as Strapi's string field writes it.
      expect(stored.map(({ score, formName, data }) => ({ score, formName, data }))).to.deep.equal([{ score: '-1', formName: 'form', data: formData }]);
      const mail = await smtp!.next('desk@example.com', before);
      expect(mail.raw).to.match(/^From: forms@example\.com$/m);
      expect(mail.raw).to.match(/^Subject: A new message$/m);
      // Its formatData: a line per field, objects as indented JSON.
      expect(mail.text.replace(/\r\n/g, '\n')).to.contain('name: Ada\nmessage: Hello there\ntopics: [\n  "a",\n  "b"\n]\n');
    },
  },
};
