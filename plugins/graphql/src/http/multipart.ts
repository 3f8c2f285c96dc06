/**
 * GraphQL multipart requests (the GraphQL multipart request spec, as
 * apollo-upload-client and Strapi v4 clients send them): form fields
 * `operations` (the JSON request, or a batch array), `map` (`{ "0":
 * ["variables.file"] }`: which file goes where) and then the files.
 *
 * The kernel's body parser (koa-body/formidable) has already read the body
 * under its limits — fields under `formLimit`, file bytes under
 * `formidable.maxFileSize` or the upload plugin's `sizeLimit`, 413 over
 * them, while streaming — into a temp folder removed after the request. This
 * only puts a `GraphqlUpload` for each file where `map` says, so the request
 * then goes through the same checks as a JSON one (document size, batching,
 * depth, aliases, fields). Every mistake in `operations` or `map` is a 400
 * naming it, never a 500.
 *
 * A multipart POST is a "simple" cross-origin request: the endpoint has
 * already asked it for a preflight-only header (csrf.ts).
 */
import type Koa from 'koa';
import { GraphqlUpload } from '../upload';

export type MultipartPayload = { payload: unknown } | { refused: string };

/** Paths never followed: JSON.parse makes own `__proto__` keys, and writing through one would change a prototype. */
const FORBIDDEN_SEGMENTS = new Set(['__proto__', 'constructor', 'prototype']);
/** As many files as the upload route accepts in one request. */
const MAX_FILES = 100;
const MAX_PATHS = 1000;

export function multipartPayload(ctx: Koa.Context): MultipartPayload {
  const request = ctx.request as { body?: unknown; files?: unknown };
  const fields = isRecord(request.body) ? request.body : {};
  const operations = jsonField(fields, 'operations');
  if ('refused' in operations) return operations;
  if (!isRecord(operations.value) && !Array.isArray(operations.value)) return refuse('The operations field must be a JSON object (or an array of them for a batch)');
  const map = jsonField(fields, 'map');
  if ('refused' in map) return map;
  const placed = placeFiles(operations.value, map.value, isRecord(request.files) ? request.files : {});
  return placed ?? { payload: operations.value };
}

function jsonField(fields: Record<string, unknown>, name: string): { value: unknown } | { refused: string } {
  const text = Object.hasOwn(fields, name) ? fields[name] : undefined;
  if (typeof text !== 'string') return refuse(`A multipart GraphQL request needs one ${name} field (GraphQL multipart request spec)`);
  try {
    return { value: JSON.parse(text) };
  } catch {
    return refuse(`The ${name} field is not valid JSON`);
  }
}

/** Each file of `map` into the operations, at every path given for it; `undefined` when all went in. */
function placeFiles(operations: unknown, map: unknown, files: Record<string, unknown>): { refused: string } | undefined {
  if (!isRecord(map)) return refuse('The map field must be a JSON object: { "<file field>": ["variables.<path>"] }');
  const entries = Object.entries(map);
  if (entries.length > MAX_FILES) return refuse(`A request holds at most ${MAX_FILES} files`);
  let paths = 0;
  for (const [key, targets] of entries) {
    if (!Array.isArray(targets) || targets.length === 0 || !targets.every((target) => typeof target === 'string')) {
      return refuse(`map["${clip(key)}"] must be a non-empty array of paths such as "variables.file"`);
    }
    paths += targets.length;
    if (paths > MAX_PATHS) return refuse(`The map field holds more than ${MAX_PATHS} paths`);
    const upload = uploadOf(files, key);
    if (!upload) return refuse(`map["${clip(key)}"] names no file of the request (send one file part named "${clip(key)}")`);
    for (const target of targets as string[]) {
      if (!place(operations, target, upload)) return refuse(`map["${clip(key)}"]: "${clip(target)}" is not a variable of the operations set to null`);
    }
  }
  return undefined;
}

function uploadOf(files: Record<string, unknown>, key: string): GraphqlUpload | undefined {
  const file = Object.hasOwn(files, key) ? files[key] : undefined;
  // Two parts with one name come as an array: which one was meant is unknown.
  if (!isRecord(file) || typeof file.filepath !== 'string') return undefined;
  return new GraphqlUpload({
    filepath: file.filepath,
    originalFilename: typeof file.originalFilename === 'string' ? file.originalFilename : null,
    mimetype: typeof file.mimetype === 'string' ? file.mimetype : null,
    size: Number(file.size),
  });
}

/**
 * `variables.x.0` (or `<n>.variables.x` in a batch): every step an existing
 * own key, the last one holding `null` (where the client left the file out).
 * Only variables take files: a file in place of `query` means nothing.
 */
function place(operations: unknown, target: string, upload: GraphqlUpload): boolean {
  const segments = target.split('.');
  const variablesAt = Array.isArray(operations) ? 1 : 0;
  if (segments[variablesAt] !== 'variables' || segments.length <= variablesAt + 1) return false;
  let parent: unknown = operations;
  for (const segment of segments.slice(0, -1)) {
    if (!hasStep(parent, segment)) return false;
    parent = (parent as Record<string, unknown>)[segment];
  }
  const last = segments[segments.length - 1];
  if (!hasStep(parent, last) || (parent as Record<string, unknown>)[last] !== null) return false;
  (parent as Record<string, unknown>)[last] = upload;
  return true;
}

function hasStep(container: unknown, segment: string): boolean {
  if (FORBIDDEN_SEGMENTS.has(segment)) return false;
  if (Array.isArray(container)) return /^(0|[1-9]\d*)$/.test(segment) && Number(segment) < container.length;
  return isRecord(container) && Object.hasOwn(container, segment);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function clip(text: string): string {
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}

function refuse(message: string): { refused: string } {
  return { refused: message };
}
