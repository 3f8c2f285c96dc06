/**
 * The contract between the content manager and a plugin that takes over its create or update of one of its types
 * (Strapi's `layout.<modelName>.actions.<action>: 'controller.action'` in the plugin's config; users-permissions'
 * user). The content manager checks the admin's access first, then calls the controller with the request's context
 * and `proceed`: its own write, which keeps the body to what the admin may write and then sets `trusted`.
 */

export interface ContentManagerWrite {
  body: Record<string, unknown>;
  /** Set after the body is kept to what the admin may write: the plugin's own values (users-permissions' `provider`). */
  trusted?: Record<string, unknown>;
}

/** The content manager's own write, the second argument of a layout-action controller. */
export type ProceedWithWrite = (write: ContentManagerWrite) => Promise<void>;
