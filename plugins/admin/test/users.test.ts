/**
 * Admin users as Strapi 4.26.2 answers them, replayed from its recording
 * (recorded/strapi-4.26.2-users.json: 97 requests made on shared/strapi4-peer by
 * scripts/strapi-peer/record-admin-scenario.js, in
 * order, on a fresh database) on a fresh database of each kind: the Users
 * page's list (pages, sort, search, filters, and Strapi's refusals of private
 * fields), invitations, reads, updates and deletes, the last Super Admin's
 * protection, an invited user's registration, and the password reset, whose
 * mail goes through the email plugin to a real SMTP server started here (the
 * reset code is read out of the mail). Where Strapi answers 500 the recording
 * says what Tessera answers instead, and why.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import nodemailer from 'nodemailer';
import { eachDatabase, startApp, TestSmtp, type TestApp } from '@tessera/testing';
import { USER_UID } from '@tessera/plugin-admin';
import { ADMIN_APP_FILES } from './fixture';

interface Step {
  title: string;
  as?: string;
  method: string;
  path: string;
  body?: unknown;
  rawBody?: string;
  capture?: Record<string, string | { resetTokenOf: string }>;
  status: number;
  answer: unknown;
  tessera?: { why: string; status: number; answer: unknown };
}

const RECORDING = JSON.parse(fs.readFileSync(path.join(__dirname, 'recorded/strapi-4.26.2-users.json'), 'utf8')) as { steps: Step[] };
const RESET_LINK = /https:\/\/cms\.test\/admin\/auth\/reset-password\?code=([0-9a-f]{40})/;

/** What the recording normalised: timestamps, JWTs and 40-hex tokens. */
function normalise(value: unknown): unknown {
  if (typeof value === 'string') {
    if (/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(value)) return '<timestamp>';
    if (/^eyJ[\w-]+\.[\w-]+\.[\w-]+$/.test(value)) return '<jwt>';
    if (/^[0-9a-f]{40}$/.test(value)) return '<token>';
    return value;
  }
  if (Array.isArray(value)) return value.map(normalise);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, normalise(inner)]));
  return value ?? null;
}

/** `$name` in a path or body: a value captured from an earlier answer (or mail). */
function fill(value: unknown, vars: Map<string, string>): unknown {
  if (typeof value === 'string') return value.replace(/\$([A-Za-z]+)/g, (whole, name: string) => vars.get(name) ?? whole);
  if (Array.isArray(value)) return value.map((item) => fill(item, vars));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, fill(inner, vars)]));
  return value;
}

const at = (body: unknown, dotted: string): unknown => dotted.split('.').reduce<unknown>((value, key) => (value as Record<string, unknown> | undefined)?.[key], body);

eachDatabase('admin users, invitations and password reset (Strapi 4.26.2 answers)', (dialect) => {
  const smtp = new TestSmtp();
  let app: TestApp;
  const vars = new Map<string, string>();
  let resetMail = '';

  before(async () => {
    await smtp.start();
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: smtp.port, secure: false, ignoreTLS: true });
    // The email plugin with a provider object (Strapi's `init(providerOptions, settings)` form) sending over SMTP.
    const provider = {
      init: () => ({ send: (message: Record<string, unknown>) => transport.sendMail({ from: 'Tessera <no-reply@cms.test>', ...message }) }),
    };
    app = await startApp({
      dialect,
      files: ADMIN_APP_FILES,
      config: {
        admin: { auth: { secret: 'admin-users-secret' }, forgotPassword: { replyTo: 'help@cms.test' } },
        server: { url: 'https://cms.test' },
        plugins: { email: { config: { provider, providerOptions: {}, settings: {} } } },
      },
    });
  });
  after(async () => {
    await app?.stop();
    await smtp.stop();
  });

  for (const step of RECORDING.steps) {
    const expected = step.tessera ?? { status: step.status, answer: step.answer };
    it(`${step.method} ${step.path.split('?')[0]}: ${step.title}${step.tessera ? ` (differs: ${step.tessera.why})` : ''}`, async () => {
      const mailsBefore = smtp.mails.length;
      const token = step.as ? vars.get(step.as) : undefined;
      const response = await app.request(step.method, fill(step.path, vars) as string, { body: fill(step.body, vars), rawBody: step.rawBody, token });
      expect([response.status, normalise(response.body)]).to.deep.equal([expected.status, expected.answer]);
      for (const [name, from] of Object.entries(step.capture ?? {})) {
        if (typeof from === 'string') {
          vars.set(name, String(at(response.body, from)));
          continue;
        }
        const mail = await smtp.next(from.resetTokenOf, mailsBefore);
        resetMail = mail.raw;
        vars.set(name, RESET_LINK.exec(mail.text)![1]);
      }
    });
  }

  it('mailed Strapi\'s reset message to the active admin who asked, and to nobody else', () => {
    expect(resetMail).to.match(/^Subject: Reset password/m);
    expect(resetMail).to.match(/^Reply-To: help@cms\.test/m);
    // No `admin.forgotPassword.from`: the provider's own sender stands.
    expect(resetMail).to.match(/^From: Tessera <no-reply@cms\.test>/m);
    expect(smtp.mails.map((mail) => mail.to)).to.deep.equal([['editor@example.com']]);
    const text = smtp.mails[0].text;
    expect(text).to.include('We heard that you lost your password. Sorry about that!');
    expect(text).to.include('But don’t worry! You can use the following link to reset your password:');
  });

  it('keeps passwords as bcrypt hashes and forgets used tokens', async () => {
    const editor = await app.app.db.query(USER_UID).findOne({ where: { email: 'editor@example.com' } });
    expect(String(editor!.password)).to.match(/^\$2[aby]\$10\$/);
    expect([editor!.registrationToken, editor!.resetPasswordToken, editor!.isActive]).to.deep.equal([null, null, true]);
    const ids = (await app.app.db.query(USER_UID).findMany({ select: ['id'], orderBy: [{ id: 'asc' }] })).map((user) => user.id);
    expect(ids).to.deep.equal([1, 2, 3, 8]);
  });
});
