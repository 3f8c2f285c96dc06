/** A real SMTP server for email tests (smtp-server, on a free loopback port), keeping every message it receives. */
import { SMTPServer } from 'smtp-server';

export interface Mail {
  to: string[];
  raw: string;
  text: string;
}

export class TestSmtp {
  readonly mails: Mail[] = [];
  private server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData: (stream, session, callback) => {
      let raw = '';
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
      stream.on('end', () => {
        this.mails.push({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address), raw, text: readableMessage(raw) });
        callback();
      });
    },
  });
  port = 0;

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', () => resolve()));
    this.port = (this.server.server.address() as { port: number }).port;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** The next mail to `address` (waits up to 5 s: mail goes out after the answer). */
  async next(address: string, after: number): Promise<Mail> {
    const deadline = Date.now() + 5000;
    while (Date.now() < deadline) {
      const mail = this.mails.slice(after).find((candidate) => candidate.to.includes(address));
      if (mail) return mail;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`no mail to ${address}`);
  }
}

/**
 * The message as a reader sees it: each MIME part's headers, then its body
 * decoded by that part's own Content-Transfer-Encoding. Decoding the whole
 * message as quoted-printable was wrong for 7bit parts: a literal
 * `=4A` in a token (as in `?loginToken=4A...`) became one character.
 */
function readableMessage(raw: string): string {
  const blank = /\r?\n\r?\n/.exec(raw);
  if (!blank) return raw;
  const headers = raw.slice(0, blank.index);
  const body = raw.slice(blank.index + blank[0].length);
  const fields = headerFields(headers);
  const boundary = /^multipart\//i.test(fields['content-type'] ?? '') ? /boundary="?([^";]+)/i.exec(fields['content-type']!)?.[1] : undefined;
  if (boundary) {
    const parts = body.split(`--${boundary}`).slice(1, -1);
    return [headers, ...parts.map((part) => readableMessage(part.replace(/^\r?\n/, '')))].join('\r\n\r\n');
  }
  const encoding = fields['content-transfer-encoding']?.trim().toLowerCase();
  return `${headers}\r\n\r\n${decodeBody(body, encoding)}`;
}

/** Header names (lower case) to values, folded lines unfolded. */
function headerFields(headers: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const line of headers.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) fields[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return fields;
}

function decodeBody(body: string, encoding: string | undefined): string {
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding !== 'quoted-printable') return body;
  const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}
