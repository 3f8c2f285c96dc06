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
        this.mails.push({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address), raw, text: decodeQuotedPrintable(raw) });
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

function decodeQuotedPrintable(raw: string): string {
  return raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

