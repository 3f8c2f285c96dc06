/** What the global-middleware tests share: a small app, Strapi's envelope, and requests sent byte for byte. */
import http from 'node:http';
import type { TestApp } from '@tessera/testing';

export const NOTE_FILES = {
  'src/api/note/content-types/note/schema.json': {
    kind: 'collectionType',
    collectionName: 'notes',
    info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
    options: { draftAndPublish: false },
    attributes: { title: { type: 'string' } },
  },
  'config/permissions.ts': `export default { public: ['api::note.note.find'] };\n`,
};

export function envelope(status: number, name: string, message: string) {
  return { data: null, error: { status, name, message, details: {} } };
}

export const NOT_FOUND = envelope(404, 'NotFoundError', 'Not Found');
export const TOO_LARGE = envelope(413, 'PayloadTooLargeError', 'Payload Too Large');

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/** A request with the path sent exactly as given (fetch would normalise `..`) and any header (Origin too). */
export function raw(app: TestApp, method: string, requestPath: string, headers: Record<string, string> = {}, body?: string): Promise<RawResponse> {
  const url = new URL(app.url);
  return new Promise((resolve, reject) => {
    const request = http.request({ host: url.hostname, port: url.port, method, path: requestPath, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text: Buffer.concat(chunks).toString('utf8') }));
    });
    request.on('error', reject);
    request.end(body);
  });
}
