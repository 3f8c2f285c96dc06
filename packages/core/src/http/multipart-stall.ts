/**
 * formidable 2's multipart parser (koa-body's, and the upload plugin's own) stalls on a part header it cannot read —
 * any byte but a letter, `-` or `:` in a header's name, as a raw line break inside a quoted file name makes — : its
 * stream transform returns without calling back, so no error and no end ever come. The request was never answered
 * and its temporary folder never removed, for any client, on every route that parses bodies (formidable fixed it in
 * 3.5.1, which is ESM only and which koa-body 6 cannot load). This makes such a transform fail instead, with the
 * status formidable gives a malformed body (400); the parsers then answer as for any unreadable body.
 */

type Callback = (error?: Error | null) => void;

/** The part of formidable's `MultipartParser` class this touches: a stream transform on its prototype. */
export interface MultipartParserClass {
  prototype: { _transform(chunk: Buffer, encoding: BufferEncoding, done: Callback): unknown };
}

const guarded = new WeakSet<object>();

/** Wraps the class's transform once (a second call on the same class changes nothing). */
export function failStalledMultipartParser(parser: MultipartParserClass): void {
  const prototype = parser.prototype;
  if (guarded.has(prototype)) return;
  guarded.add(prototype);
  const transform = prototype._transform;
  prototype._transform = function guardedTransform(this: unknown, chunk: Buffer, encoding: BufferEncoding, done: Callback) {
    let calledBack = false;
    const result = transform.call(this, chunk, encoding, (error?: Error | null) => {
      calledBack = true;
      done(error);
    });
    // The transform is synchronous: every path that reads the chunk calls back before returning; the others are its
    // parse errors.
    if (!calledBack) done(Object.assign(new Error("a part's headers could not be read"), { httpCode: 400 }));
    return result;
  };
}
