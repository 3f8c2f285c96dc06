/**
 * Strapi's mail templates' `<%= A.b %>` placeholders filled from data, by interpolation only (no template code runs).
 * Its own module: the email-templates settings and the users-permissions service both use it.
 */
const PLACEHOLDER = /<%=\s*([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)\s*%>/g;

/** `<%= A.b %>` → the value at that path of `data` ('' when absent). */
export function fillTemplate(layout: string, data: Record<string, unknown>): string {
  return layout.replace(PLACEHOLDER, (_match, path: string) => {
    let value: unknown = data;
    for (const key of path.split('.')) value = value !== null && typeof value === 'object' && Object.prototype.hasOwnProperty.call(value, key) ? (value as Record<string, unknown>)[key] : undefined;
    return value === undefined || value === null ? '' : String(value);
  });
}
