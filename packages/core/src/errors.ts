/** The kernel speaks the one error catalogue; re-exported so apps need one import. */
export * from '@tessera/errors';
