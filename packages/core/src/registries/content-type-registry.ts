/**
 * The app's content types, as `strapi.contentTypes` shows them to Strapi v4 code: every type carries Strapi's
 * `__schema__` (whoever registered it: an app's schema file, a plugin, the kernel, the admin), and the kernel's
 * internal models (`strapi::core-store`) are held for schema sync and queries but not shown as properties —
 * Strapi keeps those in its models registry, apart from its content types, so code walking
 * `Object.keys(strapi.contentTypes)` never meets them (recorded on Strapi 4.26.2:
 * scripts/ecosystem/test/admin-sides-more/recorded/strapi-4.26.2-content-types.json).
 */
import type { ContentType } from '@tessera/database';
import { attachWrittenSchema } from '../loader/content-type';
import { Registry } from './registry';

/** The namespace of the kernel's internal models (Strapi's `strapi::core-store`, `strapi::webhook`). */
const INTERNAL_MODEL = 'strapi::';

export class ContentTypeRegistry extends Registry<ContentType> {
  constructor() {
    super('content type');
  }

  override set(uid: string, contentType: ContentType): void {
    if (!Object.prototype.hasOwnProperty.call(contentType, '__schema__')) attachWrittenSchema(contentType);
    super.set(uid, contentType);
    if (uid.startsWith(INTERNAL_MODEL)) Reflect.deleteProperty(this, uid);
  }
}
