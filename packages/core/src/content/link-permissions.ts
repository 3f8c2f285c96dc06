/**
 * Relation writes obey read permissions. A write that links entries of
 * another type — a relation, a media attribute, or either of those inside a
 * component or dynamic zone — reaches that type: it may link entries the
 * caller could never see, learn from "does not exist" errors which ids exist
 * (drafts included), and take entries away from other entries. So a write
 * naming such a key is refused, before anything is looked up, unless the
 * caller may read the target: the same rule populate and relation filters use.
 *
 * A relation given an object with neither an id nor an operation (`attach`,
 * a typo) is refused here too: server code's is ignored, as Strapi ignores it.
 *
 * Which keys of each content type and component lead to another type is
 * worked out once, from the model; a write only walks the keys it was sent.
 */
import { ValidationError, type ValidationIssue } from '@tessera/errors';
import { FILE_UID, mayReadMedia, operationlessObjectIssues, type LinkField, type Metadata } from '@tessera/database';

/** Whether the caller may read a content type (`find`). */
export type CanRead = (uid: string) => boolean;

/** A key of a type or component whose value can link to entries of another type. */
type LinkingKey =
  | { kind: 'relation'; name: string; target: string }
  | { kind: 'media'; name: string }
  | { kind: 'component'; name: string; repeatable: boolean; component: string }
  | { kind: 'dynamiczone'; name: string; components: ReadonlySet<string> };

export class LinkPermissions {
  private readonly keys = new Map<string, LinkingKey[]>();

  constructor(private readonly metadata: Metadata) {
    for (const uid of metadata.keys()) this.linkingKeys(uid, new Set());
  }

  /** Throws a 400 naming every key of `data` that links to a type the caller may not read. */
  check(uid: string, data: unknown, canRead: CanRead): void {
    const issues: ValidationIssue[] = [];
    this.collect(uid, data, [], canRead, issues);
    if (issues.length > 0) throw ValidationError.fromIssues(issues);
  }

  private collect(uid: string, data: unknown, path: string[], canRead: CanRead, issues: ValidationIssue[]): void {
    if (!isObject(data)) return;
    for (const key of this.keys.get(uid) ?? []) {
      const value = data[key.name];
      if (value === undefined) continue;
      const at = [...path, key.name];
      if (key.kind === 'relation' && !canRead(key.target)) issues.push(refused(at, key.target));
      else if (key.kind === 'relation') issues.push(...operationlessObjectIssues(at, value));
      else if (key.kind === 'media' && !mayReadMedia(canRead)) issues.push(refused(at, FILE_UID));
      else if (key.kind === 'component') {
        if (!key.repeatable) this.collect(key.component, value, at, canRead, issues);
        else if (Array.isArray(value)) value.forEach((item, index) => this.collect(key.component, item, [...at, String(index)], canRead, issues));
      } else if (key.kind === 'dynamiczone' && Array.isArray(value)) {
        value.forEach((item, index) => {
          // An unknown or missing `__component` is the validator's to report.
          const component = isObject(item) ? item.__component : undefined;
          if (typeof component === 'string' && key.components.has(component)) this.collect(component, item, [...at, String(index)], canRead, issues);
        });
      }
    }
  }

  /** The keys of `uid` that can link to another type, directly or through its components (memoised). */
  private linkingKeys(uid: string, visiting: Set<string>): LinkingKey[] {
    const known = this.keys.get(uid);
    if (known) return known;
    // A component nested in itself would recurse forever; the inner occurrence adds nothing new.
    if (visiting.has(uid)) return [];
    visiting.add(uid);
    const keys: LinkingKey[] = [];
    for (const field of this.metadata.get(uid)?.links.values() ?? []) {
      const key = this.linkingKey(field, visiting);
      if (key) keys.push(key);
    }
    visiting.delete(uid);
    this.keys.set(uid, keys);
    return keys;
  }

  private linkingKey(field: LinkField, visiting: Set<string>): LinkingKey | null {
    if (field.kind === 'relation') return field.target ? { kind: 'relation', name: field.name, target: field.target } : null;
    if (field.kind === 'media') return { kind: 'media', name: field.name };
    const linking = field.components.filter((component) => this.linkingKeys(component, visiting).length > 0);
    if (linking.length === 0) return null;
    if (field.kind === 'component') return { kind: 'component', name: field.name, repeatable: field.repeatable, component: field.components[0] };
    return { kind: 'dynamiczone', name: field.name, components: new Set(linking) };
  }
}

function refused(path: string[], target: string): ValidationIssue {
  return { path, message: `${path.join('.')}: you may not read ${target}, so you may not link to it`, name: 'ValidationError' };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
