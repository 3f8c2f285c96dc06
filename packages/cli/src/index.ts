export { main } from './main';
export { createApp, describeError } from './app';
