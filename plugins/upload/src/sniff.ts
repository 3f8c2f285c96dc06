/**
 * What a file really is, from its bytes: never from the client's
 * Content-Type or file name. Binary formats are recognised by `file-type`;
 * text is checked here for markup a browser would run (HTML, SVG, XML).
 * The stored extension always agrees with the type found, so whoever serves
 * `<hash><ext>` later serves the right type.
 */
import fs from 'node:fs/promises';
import { extension, lookup } from 'mime-types';
import { extensionOf } from './names';

export interface Sniffed {
  mime: string;
  ext: string;
}

const HEAD_BYTES = 4100;
type FileTypeModule = { fileTypeFromBuffer(buffer: Uint8Array): Promise<{ ext: string; mime: string } | undefined> };
let fileTypeModule: Promise<FileTypeModule> | undefined;

/** file-type is ESM-only: loaded with a real dynamic import (tsc would turn `import()` into `require`). */
function fileType(): Promise<FileTypeModule> {
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  fileTypeModule ??= (new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<FileTypeModule>)('file-type');
  return fileTypeModule;
}

export async function sniffFile(filepath: string, clientName: string): Promise<Sniffed> {
  const head = await readHead(filepath);
  return sniffBuffer(head, clientName);
}

export async function sniffBuffer(head: Buffer, clientName: string): Promise<Sniffed> {
  const detected = await (await fileType()).fileTypeFromBuffer(head);
  // file-type calls any XML document XML; an SVG or XHTML one is markup a browser runs.
  const mime = detected && detected.mime !== 'application/xml' ? detected.mime : textType(head, clientName);
  return { mime, ext: extensionFor(mime, clientName) };
}

/** The client's extension when it names this very type; otherwise the type's own extension. */
function extensionFor(mime: string, clientName: string): string {
  const clientExt = extensionOf(clientName);
  if (clientExt && lookup(clientExt) === mime) return clientExt;
  const own = extension(mime);
  return own ? `.${own}` : '';
}

const MARKUP_PROBES: Array<[RegExp, string]> = [
  [/<svg[\s>/]/i, 'image/svg+xml'],
  [/<(!doctype\s+html|html|head|body|script|iframe|object|embed|meta|a\s|img|style|form|title|frameset|!--)[\s>/]/i, 'text/html'],
  [/^\s*<\?xml[\s?]/i, 'application/xml'],
];

/**
 * Text that contains markup a browser would render is that markup, whatever
 * the name says. Other text keeps the type its extension names when that is
 * a passive text type (csv, markdown, json), else `text/plain`. Anything
 * that is not text is `application/octet-stream`.
 */
function textType(head: Buffer, clientName: string): string {
  if (!looksLikeText(head)) return 'application/octet-stream';
  const text = head.toString('utf8').replace(/^\uFEFF/, '');
  for (const [probe, mime] of MARKUP_PROBES) if (probe.test(text)) return mime;
  const named = lookup(extensionOf(clientName) || 'x.none');
  return named && PASSIVE_TEXT.has(named) ? named : 'text/plain';
}

const PASSIVE_TEXT = new Set(['text/plain', 'text/csv', 'text/markdown', 'application/json', 'text/tab-separated-values']);

function looksLikeText(head: Buffer): boolean {
  if (head.includes(0)) return false;
  const text = head.toString('utf8');
  // Allow a multi-byte character cut at the end of the probe.
  return !text.slice(0, -3).includes('\uFFFD');
}

async function readHead(filepath: string): Promise<Buffer> {
  const handle = await fs.open(filepath, 'r');
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, HEAD_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}
