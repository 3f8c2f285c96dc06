/**
 * What the content manager keeps from admins, as Strapi 4.26.2's admin sanitizers (`omitHiddenFields`,
 * `sanitizePasswords`) keep it: the attributes a schema hides with `config.attributes.<name>.hidden` (the
 * users-permissions user's `provider`, `resetPasswordToken`, `confirmationToken`) leave answers, inputs, filters,
 * sorts and main fields, and `password` attributes leave answers, filters and sorts.
 *
 * `private` is not among them: it keeps an attribute out of the content API (REST, GraphQL, every content-API
 * caller), while an admin reads, filters, sorts and edits it in the content manager as far as the role's field
 * permissions reach, as on Strapi (recorded on the peer: a private text and a private relation answered, filtered,
 * sorted and searched with `_q`, the relation's picker served).
 */
import type { App } from '@tessera/core';

/** The hidden attribute names of a content type or component, by uid. */
export type HiddenFields = (uid: string) => ReadonlySet<string>;

const NONE: ReadonlySet<string> = new Set();

/** Reads each schema's `config` once: schemas do not change while an app runs. */
export function hiddenFieldsOf(app: App): HiddenFields {
  const known = new Map<string, ReadonlySet<string>>();
  return (uid) => {
    let hidden = known.get(uid);
    if (hidden === undefined) {
      const model = app.getModel(uid);
      const config = model && 'config' in model ? model.config : undefined;
      const names = Object.entries(config?.attributes ?? {}).filter(([, options]) => options?.hidden === true).map(([name]) => name);
      hidden = names.length === 0 ? NONE : new Set(names);
      known.set(uid, hidden);
    }
    return hidden;
  };
}
