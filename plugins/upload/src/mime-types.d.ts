// mime-types (a koa dependency) ships no types; the two functions used here.
declare module 'mime-types' {
  export function lookup(pathOrExtension: string): string | false;
  export function extension(mime: string): string | false;
}
