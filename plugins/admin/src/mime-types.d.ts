// mime-types (a koa dependency) ships no types; the one function used here.
declare module 'mime-types' {
  export function lookup(pathOrExtension: string): string | false;
}
