/**
 * Multipart parsing for the upload route: formidable streams each file to a
 * temp folder of its own (one per request) and stops at `sizeLimit` bytes of
 * files with a 413, so an oversized body never sits in memory or fills the
 * disk. The temp folder is removed when the request ends, whatever happened.
 * When a global body parser already parsed the request (`ctx.request.files`),
 * its files are used, and removed the same way.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type Koa from 'koa';
import { failStalledMultipartParser, requestBody, requestFiles, type MultipartParserClass } from '@tessera/core';
import { PayloadTooLargeError, ValidationError } from '@tessera/errors';

/** One uploaded file as it sits in its temp file. */
export interface IncomingFile {
  filepath: string;
  /** The client's file name (untrusted display text). */
  originalFilename: string | null;
  /** Bytes on disk. */
  size: number;
}

export interface ParsedUpload {
  files: IncomingFile[];
  fields: Record<string, string | string[]>;
}

/** Field data (fileInfo JSON, ref, refId, field) is small. */
const MAX_FIELDS_SIZE = 1024 * 1024;
const MAX_FIELDS = 100;
const MAX_FILES = 100;
const FILES_FIELD = 'files';
/** formidable's `biggerThanMaxFileSize` error code. */
const FORMIDABLE_FILE_TOO_BIG = 1009;

export function multipartMiddleware(sizeLimit: () => number): Koa.Middleware {
  return async (ctx, next) => {
    const tempDir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'tessera-upload-'));
    const globalFiles = requestFiles(ctx);
    try {
      const parsed = globalFiles ? fromGlobalParser(globalFiles, requestBody(ctx)) : await parse(ctx, tempDir, sizeLimit());
      ctx.state.upload = parsed;
      await next();
    } finally {
      // Retried: a file formidable had begun when the parse failed may still be landing in the folder (ENOTEMPTY).
      await fs.promises.rm(tempDir, { recursive: true, force: true, maxRetries: 3 });
      const files = globalFiles ? Object.values(globalFiles).flat() : [];
      for (const file of files) await removeTemp(file);
    }
  };
}

async function parse(ctx: Koa.Context, tempDir: string, sizeLimit: number): Promise<ParsedUpload> {
  if (!ctx.is('multipart')) return { files: [], fields: bodyFields(requestBody(ctx)) };
  // A declared length beyond what could be accepted is refused before reading a byte.
  const declared = Number(ctx.get('content-length'));
  if (Number.isFinite(declared) && declared > sizeLimit + MAX_FIELDS_SIZE + 64 * 1024) throw tooLarge(sizeLimit);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const formidable = require('formidable') as typeof import('formidable') & { MultipartParser: MultipartParserClass };
  failStalledMultipartParser(formidable.MultipartParser);
  // Files past MAX_FILES are skipped as they begin, never written, and the request is refused once read: an error
  // raised while other files were still being written left them landing in the folder being removed (a 500).
  let filesSeen = 0;
  const form = formidable({
    uploadDir: tempDir,
    maxFileSize: sizeLimit,
    maxFieldsSize: MAX_FIELDS_SIZE,
    maxFields: MAX_FIELDS,
    multiples: true,
    keepExtensions: false,
    filter: () => ++filesSeen <= MAX_FILES,
  });
  // Files are reported as they finish writing; their order in the request is the order they began.
  const order: string[] = [];
  form.on('fileBegin', (_name: string, file: { filepath: string }) => void order.push(file.filepath));
  const { fields, files } = await new Promise<{ fields: Record<string, unknown>; files: Record<string, unknown> }>((resolve, reject) => {
    form.parse(ctx.req, (error, fields, files) => (error ? reject(error) : resolve({ fields, files })));
  }).catch((error: { httpCode?: number; code?: number; message?: string }) => {
    // Only a file over the size limit is "the files exceed…"; too many or too large fields are a plain 413.
    if (error.code === FORMIDABLE_FILE_TOO_BIG) throw tooLarge(sizeLimit);
    if (error.httpCode === 413) throw new PayloadTooLargeError(`Payload Too Large: at most ${MAX_FIELDS} fields of ${MAX_FIELDS_SIZE} bytes in all`);
    throw new ValidationError(`Invalid multipart body: ${String(error.message ?? 'unreadable')}`);
  });
  if (filesSeen > MAX_FILES) throw new ValidationError(`Invalid multipart body: at most ${MAX_FILES} files per request`);
  const inOrder = toFiles(files[FILES_FIELD]).sort((a, b) => order.indexOf(a.filepath) - order.indexOf(b.filepath));
  return { files: inOrder, fields: stringFields(fields) };
}

function fromGlobalParser(files: Record<string, unknown>, body: unknown): ParsedUpload {
  return { files: toFiles(files[FILES_FIELD]), fields: bodyFields(body) };
}

function toFiles(value: unknown): IncomingFile[] {
  const list = value === undefined ? [] : Array.isArray(value) ? value : [value];
  return list.map((file) => {
    const { filepath, originalFilename, size } = file as { filepath: string; originalFilename?: string | null; size: number };
    return { filepath, originalFilename: originalFilename ?? null, size: Number(size) };
  });
}

function stringFields(fields: Record<string, unknown>): Record<string, string | string[]> {
  const result: Record<string, string | string[]> = {};
  for (const [key, value] of Object.entries(fields)) {
    if (Array.isArray(value)) result[key] = value.map(String);
    else if (value !== undefined) result[key] = String(value);
  }
  return result;
}

function bodyFields(body: unknown): Record<string, string | string[]> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return {};
  const result: Record<string, string | string[]> = {};
  for (const [key, value] of Object.entries(body)) {
    if (Array.isArray(value)) result[key] = value.map((item) => (typeof item === 'string' ? item : JSON.stringify(item)));
    else if (value !== undefined && value !== null) result[key] = typeof value === 'string' ? value : JSON.stringify(value);
  }
  return result;
}

async function removeTemp(file: unknown): Promise<void> {
  const filepath = (file as { filepath?: unknown } | null)?.filepath;
  if (typeof filepath === 'string') await fs.promises.rm(filepath, { force: true });
}

export function tooLarge(sizeLimit: number): PayloadTooLargeError {
  return new PayloadTooLargeError(`The files exceed the upload size limit (${sizeLimit} bytes)`);
}
