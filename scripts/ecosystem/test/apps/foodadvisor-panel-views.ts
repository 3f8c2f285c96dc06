/**
 * What the FoodAdvisor panel trial reads of the content manager: the content types as the admin API lists them
 * (`/content-manager/init`), each type's view configuration (its list columns and edit fields with their labels),
 * and the page's list and edit views to hold against those answers.
 */
import { expect } from 'chai';
import type { Page, Response } from 'playwright-core';
import type { TestApp } from '@tessera/testing';

export const WAIT = { timeout: 60_000 };

export interface ContentTypeInfo {
  uid: string;
  kind: 'collectionType' | 'singleType';
  isDisplayed: boolean;
  info: { displayName: string };
  pluginOptions?: { i18n?: { localized?: boolean } };
  options?: { draftAndPublish?: boolean };
  attributes: Record<string, { type: string }>;
}

interface Metadata {
  edit: { label: string; visible?: boolean };
  list: { label: string };
}

export interface ViewConfiguration {
  settings: { defaultSortBy: string; defaultSortOrder: string; pageSize: number };
  layouts: { list: string[]; edit: Array<Array<{ name: string }>> };
  metadatas: Record<string, Metadata>;
}

/** The panel's path of a type's views. */
export function viewPath(type: ContentTypeInfo): string {
  return `/admin/content-manager/${type.kind === 'singleType' ? 'single-types' : 'collection-types'}/${type.uid}`;
}

/** The content types the content manager's menu lists, as the admin API answers them. */
export async function displayedTypes(app: TestApp, token: string): Promise<ContentTypeInfo[]> {
  const init = await app.get('/content-manager/init', { token });
  expect(init.status).to.equal(200);
  return (init.body.data.contentTypes as ContentTypeInfo[]).filter((type) => type.isDisplayed);
}

export async function configurationOf(app: TestApp, token: string, uid: string): Promise<ViewConfiguration> {
  const answer = await app.get(`/content-manager/content-types/${uid}/configuration`, { token });
  expect(answer.status).to.equal(200);
  return answer.body.data.contentType as ViewConfiguration;
}

/** The first page of a collection type's list as the panel asks for it (default sort, page size, English for a localized type). */
export async function listAnswer(app: TestApp, token: string, type: ContentTypeInfo, configuration: ViewConfiguration): Promise<Array<Record<string, unknown>>> {
  const { defaultSortBy, defaultSortOrder, pageSize } = configuration.settings;
  const locale = type.pluginOptions?.i18n?.localized ? '&locale=en' : '';
  const answer = await app.get(`/content-manager/collection-types/${type.uid}?page=1&pageSize=${pageSize}&sort=${defaultSortBy}:${defaultSortOrder}${locale}`, { token });
  expect(answer.status).to.equal(200);
  return answer.body.results as Array<Record<string, unknown>>;
}

/** Clicks the type's link in the content manager's menu and waits for the panel's request for its view (a single type's ends with a slash). */
export async function openFromMenu(page: Page, type: ContentTypeInfo): Promise<Response> {
  const api = `/content-manager/${type.kind === 'singleType' ? 'single-types' : 'collection-types'}/${type.uid}`;
  const asked = page.waitForResponse((response) => response.request().method() === 'GET' && new URL(response.url()).pathname.replace(/\/$/, '') === api, WAIT);
  const menu = page.getByRole('navigation', { name: 'Content' });
  await menu.locator(`a[href$="${viewPath(type)}"], a[href*="${viewPath(type)}?"]`).click();
  return asked;
}

/**
 * The list's column headers, lower-cased (the panel shows them in capitals through CSS), each its first line (a
 * sortable one has its "Sort on …" tooltip after it); the selection column has none, the last is "Actions".
 */
export async function listHeaders(page: Page): Promise<string[]> {
  const headers = await page.locator('thead th').allInnerTexts();
  return headers.map((text) => text.trim().split('\n')[0].toLowerCase()).filter(Boolean);
}

/** The ids of the list's rows, top to bottom (the id column is the first one after the selection box). */
export async function listIds(page: Page): Promise<number[]> {
  const rows = page.locator('tbody tr');
  const ids: number[] = [];
  for (let index = 0; index < (await rows.count()); index += 1) ids.push(Number((await rows.nth(index).locator('td').nth(1).innerText()).trim()));
  return ids;
}

/** The edit view's fields, row by row, with their labels as the configuration names them. */
export function editLabels(configuration: ViewConfiguration): Array<{ name: string; label: string }> {
  return configuration.layouts.edit.flat().map((field) => ({ name: field.name, label: configuration.metadatas[field.name].edit.label }));
}

/**
 * Whether the page shows a field labelled `label`: a text starting with it as a word (then " *" when required, a
 * count, a hint); an empty dynamic zone shows only its button to add a block, named after it.
 */
export async function showsField(page: Page, label: string, dynamicZone: boolean): Promise<boolean> {
  if (dynamicZone && (await page.getByRole('button', { name: `Add a component to ${label}` }).count()) > 0) return true;
  const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return (await page.getByText(new RegExp(`^${escaped}(?![\\w-])`)).count()) > 0;
}
