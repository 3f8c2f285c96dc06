// The core controller; add actions here, or override one and call super.find(ctx) for the default.
import { createCoreController } from '@tessera/plugin-rest';

export default createCoreController('api::{{name}}.{{name}}');
