/**
 * What Tessera does with each of Strapi 4.26.2's admin routes, and why, as data: a route is served unless a rule
 * below says otherwise (the first rule whose path prefix, and method when given, matches). The route table's test
 * holds these to the example app's mounted routes and to the answers recorded on Strapi; docs/admin-panel.md's table
 * is generated from them (scripts/admin-route-table.js).
 */
import type { HttpMethod, StrapiRoute } from './reference';

export type Verdict =
  | { status: 'served' }
  /** Not an API Tessera has: answered as a community-edition Strapi 4.26.2 answers it (recorded). */
  | { status: 'community-edition'; why: string }
  | { status: 'not-served'; why: string };

export interface Rule {
  /** A path prefix: `/admin/audit-logs` takes `/admin/audit-logs` and `/admin/audit-logs/:id`. */
  under: string;
  method?: HttpMethod;
  verdict: Verdict;
}

const panelPage = (feature: string): Verdict => ({
  status: 'community-edition',
  why: `Enterprise only (${feature}): a community edition has no such route, so a GET is the panel's page and another method 405`,
});

const notServed = (why: string): Verdict => ({ status: 'not-served', why });

export const RULES: Rule[] = [
  {
    under: '/admin/transfer/runner/',
    verdict: { status: 'community-edition', why: "data transfer (`strapi transfer`), which Tessera has not: answered as Strapi with transfer off (401)" },
  },
  { under: '/admin/providers', verdict: panelPage('single sign-on') },
  { under: '/admin/connect/', verdict: panelPage('single sign-on') },
  { under: '/admin/audit-logs', verdict: panelPage('audit logs') },
  { under: '/admin/review-workflows/', verdict: panelPage('review workflows') },
  { under: '/admin/content-manager/', verdict: panelPage('review workflows') },
  { under: '/admin/license-limit-information', verdict: panelPage('licence seats') },
  {
    under: '/content-releases',
    verdict: { status: 'community-edition', why: 'Enterprise only (content releases): a community edition has no such route: 404 (Strapi answers a method other than GET 405, as on any unknown path)' },
  },
];

const SERVED: Verdict = { status: 'served' };

export function ruleOf(route: StrapiRoute): Rule | undefined {
  return RULES.find((rule) => (rule.method === undefined || rule.method === route.method) && (route.path === rule.under || route.path.startsWith(rule.under.endsWith('/') ? rule.under : `${rule.under}/`)));
}

export function verdictOf(route: StrapiRoute): Verdict {
  return ruleOf(route)?.verdict ?? SERVED;
}
