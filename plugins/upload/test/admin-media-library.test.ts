/**
 * The media library's admin routes answer as Strapi 4.26.2 answers them: the
 * recorded exchanges (data/strapi-4.26.2-admin-media-library.json) replayed in
 * order on a fresh database of each kind — uploads, folders, moves, file info,
 * replace, deletes, settings and the library's view configuration, with
 * Strapi's refusals of bad input.
 */
import { expect } from 'chai';
import { eachDatabase } from '@tessera/testing';
import recording from './data/strapi-4.26.2-admin-media-library.json';
import { normalise, recordedImages, send, startMediaApp, type Exchange, type MediaApp } from './admin-fixture';

/** Strapi uploads several files at once in parallel: their ids follow whichever finished first. */
const UNORDERED = new Set(['upload two files without fileInfo', 'files by name']);

function withoutIds(answer: unknown): unknown {
  const strip = (file: Record<string, unknown>) => {
    const { id: _id, ...rest } = file;
    return rest;
  };
  if (Array.isArray(answer)) return answer.map((file) => strip(file as Record<string, unknown>)).sort((a, b) => String(a.name).localeCompare(String(b.name)));
  const page = answer as { results: Array<Record<string, unknown>> };
  return { ...page, results: page.results.map(strip) };
}

eachDatabase('media library admin routes (Strapi 4.26.2 answers)', (dialect) => {
  let media: MediaApp;
  let images: Record<string, Buffer>;
  before(async () => {
    media = await startMediaApp(dialect, recording.admin);
    images = await recordedImages();
  });
  after(() => media?.app.stop());

  for (const exchange of recording.exchanges as Exchange[]) {
    it(`${exchange.method} ${exchange.path}: ${exchange.title}`, async () => {
      const { status, body } = await send(media, exchange, images);
      const answer = normalise(body);
      if (UNORDERED.has(exchange.title)) expect([status, withoutIds(answer)]).to.deep.equal([exchange.status, withoutIds(exchange.answer)]);
      else expect([status, answer]).to.deep.equal([exchange.status, exchange.answer]);
    });
  }
});
