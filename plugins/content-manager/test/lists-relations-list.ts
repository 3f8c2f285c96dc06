/**
 * The Article list of the content manager, as lists-relations-browser.test.ts drives and checks it: adding a filter
 * from the Filters button, waiting for the list request an action makes, reading a column, and holding what the page
 * shows to the seed (lists-relations-fixture.ts) and to the admin API's and REST's answers for the same query.
 */
import { expect } from 'chai';
import { type Page } from 'playwright-core';
import { type TestApp } from '@tessera/testing';
import { ARTICLE, pageOf, type Seed, type SeededArticle } from './lists-relations-fixture';

export const WAIT = { timeout: 60_000 };
export const LIST_API = `/content-manager/collection-types/${ARTICLE}`;
/** The list's columns (after the selection checkbox): stored from the server before the panel opens. */
export const COLUMNS = ['id', 'title', 'category', 'tags', 'views', 'status'];
/** A row's cell of a column of the list, by attribute name. */
export const rowCell = (column: string) => `td:nth-child(${COLUMNS.indexOf(column) + 2})`;
/** The cells of a column of the list, by attribute name. */
export const cell = (column: string) => `tbody tr ${rowCell(column)}`;

/** Filter parameters of a URL query, in order, as [key, value]. */
export type Filters = Array<[string, string]>;

export class ArticleList {
  constructor(
    private readonly page: Page,
    private readonly app: TestApp,
    private readonly tokens: { admin: string; api: string },
    private readonly seed: Seed,
  ) {}

  /** Runs `action` and waits for the list request it makes; the panel's own query of it. */
  async answered(action: () => Promise<unknown>): Promise<URLSearchParams> {
    const answer = this.page.waitForResponse((response) => response.request().method() === 'GET' && new URL(response.url()).pathname === LIST_API, WAIT);
    await action();
    const response = await answer;
    expect(response.status()).to.equal(200);
    return new URL(response.url()).searchParams;
  }

  /** The cells of `column` once they read `expected` (the list renders after its answer), else the last read. */
  async shown(column: string, expected: string[]): Promise<string[]> {
    const deadline = Date.now() + WAIT.timeout;
    let texts: string[] = [];
    do {
      texts = (await this.page.locator(cell(column)).allInnerTexts()).map((text) => text.trim());
      if (JSON.stringify(texts) === JSON.stringify(expected)) break;
      await this.page.waitForTimeout(100);
    } while (Date.now() < deadline);
    return texts;
  }

  /** The total in the list's header ("N entries found"), once it reads `total` or after the wait. */
  async totalShown(total: number): Promise<number> {
    await this.page.getByText(`${total} ${total === 1 ? 'entry' : 'entries'} found`, { exact: true }).waitFor(WAIT).catch(() => undefined);
    return Number(/^\d+/.exec(await this.page.getByText(/^\d+ entr(y|ies) found$/).innerText())![0]);
  }

  /**
   * Holds the list to the seed: the page's URL has `filters` (in order), `sort` and the page; its rows and total are
   * the seed's articles that `matches`, in that sort and page; the admin API, asked the panel's query, and REST,
   * asked the same filters, sort and page (drafts included), answer the same titles and total.
   */
  async expect(filters: Filters, matches: (article: SeededArticle) => boolean, sort: string, pageNumber: number, pageSize: number): Promise<void> {
    const url = new URL(this.page.url()).searchParams;
    expect([...url].filter(([key]) => key.startsWith('filters'))).to.deep.equal(filters);
    expect({ sort: url.get('sort'), page: url.get('page'), pageSize: url.get('pageSize') }).to.deep.equal({ sort, page: String(pageNumber), pageSize: String(pageSize) });
    const matching = this.seed.articles.filter(matches);
    const titles = pageOf(matching, sort, pageNumber, pageSize);
    expect(await this.shown('title', titles)).to.deep.equal(titles);
    expect(await this.totalShown(matching.length)).to.equal(matching.length);

    const admin = await this.app.get(`${LIST_API}?${url}`, { token: this.tokens.admin });
    expect(admin.status).to.equal(200);
    expect(admin.body.results.map((entry: { title: string }) => entry.title)).to.deep.equal(titles);
    expect(admin.body.pagination).to.deep.equal({ page: pageNumber, pageSize, pageCount: Math.ceil(matching.length / pageSize), total: matching.length });

    const rest = new URLSearchParams(filters);
    // REST takes a sort through a relation in its dotted form only (it refuses the panel's brackets, as Strapi's does).
    rest.set('sort', sort.replace(/\[(\w+)\]/g, '.$1'));
    rest.set('pagination[page]', String(pageNumber));
    rest.set('pagination[pageSize]', String(pageSize));
    rest.set('publicationState', 'preview');
    rest.set('fields[0]', 'title');
    const answer = await this.app.get(`/api/articles?${rest}`, { token: this.tokens.api });
    expect(answer.status).to.equal(200);
    expect(answer.body.data.map((entry: { attributes: { title: string } }) => entry.attributes.title)).to.deep.equal(titles);
    expect(answer.body.meta.pagination.total).to.equal(matching.length);
  }

  /** Adds a filter from the Filters button: the field, then an operator, then a typed value or a chosen option. */
  async addFilter(field: string, operator: string | undefined, value: { typed?: string; chosen?: string }): Promise<void> {
    const { page } = this;
    await page.getByRole('button', { name: 'Filters', exact: true }).click();
    await page.getByRole('combobox', { name: 'Select field' }).click();
    await page.getByRole('option', { name: field, exact: true }).click();
    if (operator) {
      await page.getByRole('combobox', { name: 'Select filter' }).click();
      await page.getByRole('option', { name: operator, exact: true }).click();
    }
    if (value.typed !== undefined) await page.getByRole('textbox', { name: 'Filter value' }).fill(value.typed);
    if (value.chosen !== undefined) {
      await page.getByRole('combobox', { name: field, exact: true }).click();
      await page.getByRole('option', { name: value.chosen, exact: true }).click();
    }
    await this.answered(() => page.getByRole('button', { name: 'Add filter' }).click());
  }
}
