import hasTitle from './has-title';

export default { 'has-title': hasTitle };
