// The core service (find, findOne, create, update, delete); controllers call it.
import { createCoreService } from '@tessera/plugin-rest';

export default createCoreService('api::{{name}}.{{name}}');
