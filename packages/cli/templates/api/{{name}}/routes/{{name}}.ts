// The five core routes: GET/POST /api/{{pluralName}}, GET/PUT/DELETE /api/{{pluralName}}/:id.
// Options: createCoreRouter(uid, { only: ['find'], config: { find: { policies: [...], middlewares: [...] } } }).
import { createCoreRouter } from '@tessera/plugin-rest';

export default createCoreRouter('api::{{name}}.{{name}}');
