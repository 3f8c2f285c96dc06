import item from './item';

export default { item };
