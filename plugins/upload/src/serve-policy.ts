/**
 * How a stored file may be shown by a browser. Only passive types are shown
 * inline; everything else — HTML, SVG, XML, scripts, unknown types — is a
 * download (`Content-Disposition: attachment`), so an uploaded file never
 * runs as active content on the API's origin. Every response carries
 * `X-Content-Type-Options: nosniff`.
 */
const INLINE_TYPES = new Set(['application/pdf', 'text/plain', 'text/csv', 'application/json']);

export function isActiveContent(mime: string): boolean {
  if (mime === 'image/svg+xml') return true;
  if (INLINE_TYPES.has(mime)) return false;
  return !/^(image|video|audio)\//.test(mime);
}
