/**
 * TestSmtp's `text` is what a reader of the mail sees: every part decoded by
 * its own Content-Transfer-Encoding, as nodemailer chose it. A 7bit part is
 * left as it is, so `=4A` in a plain-text link survives.
 */
import { expect } from 'chai';
import { createTransport } from 'nodemailer';
import { TestSmtp } from '@tessera/testing';

describe('TestSmtp (a real SMTP server for email tests)', () => {
  const smtp = new TestSmtp();
  before(() => smtp.start());
  after(() => smtp.stop());

  async function send(to: string, text: string, html?: string): Promise<string> {
    const before = smtp.mails.length;
    const transport = createTransport({ host: '127.0.0.1', port: smtp.port, secure: false, ignoreTLS: true });
    await transport.sendMail({ from: 'cms@example.com', to, subject: 'Hi', text, html });
    return (await smtp.next(to, before)).text;
  }

  it('leaves a 7bit part as it is: an escape-like `=4A` stays three characters', async () => {
    const text = await send('seven@example.com', 'Open http://127.0.0.1:1337?loginToken=4AbC-_9\nThanks.', '<p>?loginToken=4AbC-_9</p>');
    expect(text).to.contain('?loginToken=4AbC-_9\r\nThanks.').and.contain('<p>?loginToken=4AbC-_9</p>');
  });

  it('decodes a quoted-printable part: soft line breaks joined, escapes and UTF-8 read back', async () => {
    const line = `Grüße ${'x'.repeat(90)} a=b`;
    const text = await send('qp@example.com', line);
    expect(text).to.contain(line);
  });

  it('decodes a base64 part', async () => {
    const line = 'Привет, мир';
    const text = await send('b64@example.com', line);
    expect(text).to.contain(line);
  });
});
