/**
 * The test model shared by the REST suites: `api::item.item` with one
 * attribute of every scalar type (plus a private field and a password), a
 * collection type without draft/publish (`api::note.note`) and a single type
 * (`api::setting.setting`). Rows are seeded through the API itself.
 */
import { startApp, type TestApp, type TestDialect, type TestAppOptions } from '@tessera/testing';

export const ITEM_SCHEMA = {
  kind: 'collectionType',
  collectionName: 'items',
  info: { singularName: 'item', pluralName: 'items', displayName: 'Item' },
  options: { draftAndPublish: true },
  attributes: {
    title: { type: 'string' },
    code: { type: 'string', unique: true },
    body: { type: 'text' },
    count: { type: 'integer' },
    big: { type: 'biginteger' },
    price: { type: 'decimal' },
    ratio: { type: 'float' },
    active: { type: 'boolean' },
    day: { type: 'date' },
    clock: { type: 'time' },
    moment: { type: 'datetime' },
    kind: { type: 'enumeration', enum: ['alpha', 'beta', 'gamma'] },
    data: { type: 'json' },
    secret: { type: 'string', private: true },
    password: { type: 'password' },
  },
};

export const NOTE_SCHEMA = {
  kind: 'collectionType',
  collectionName: 'notes',
  info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
  options: { draftAndPublish: false },
  attributes: { text: { type: 'string', required: true }, rank: { type: 'integer' } },
};

export const SETTING_SCHEMA = {
  kind: 'singleType',
  collectionName: 'settings',
  info: { singularName: 'setting', pluralName: 'settings', displayName: 'Setting' },
  options: { draftAndPublish: false },
  attributes: { title: { type: 'string' }, motto: { type: 'text' } },
};

export const BASE_FILES: Record<string, string | object> = {
  'src/api/item/content-types/item/schema.json': ITEM_SCHEMA,
  'src/api/note/content-types/note/schema.json': NOTE_SCHEMA,
  'src/api/setting/content-types/setting/schema.json': SETTING_SCHEMA,
  'config/permissions.ts': `export default { public: ['api::item.item.find', 'api::item.item.findOne', 'api::setting.setting.find'] };\n`,
};

export interface ItemSeed {
  title: string | null;
  code?: string;
  body?: string | null;
  count?: number | null;
  big?: string | null;
  price?: number | null;
  ratio?: number | null;
  active?: boolean | null;
  day?: string | null;
  clock?: string | null;
  moment?: string | null;
  kind?: string | null;
  data?: unknown;
  secret?: string;
  password?: string;
  publishedAt?: null;
}

/**
 * Seven published rows with deliberate edge cases (case, accents, `%`/`_`,
 * nulls, ties on `count`) and one draft.
 */
export const ITEMS: ItemSeed[] = [
  { title: 'Apple pie', code: 'c1', body: 'Sweet and warm', count: 10, big: '9007199254740993', price: 10.5, ratio: 0.25, active: true, day: '2024-01-10', clock: '08:30:00', moment: '2024-01-10T08:30:00.000Z', kind: 'alpha', data: { a: 1 }, secret: 's1', password: 'pw-one-1' },
  { title: 'apple TART', code: 'c2', body: 'Crisp', count: 20, big: '2', price: 20, ratio: 0.5, active: false, day: '2024-02-15', clock: '12:00:00', moment: '2024-02-15T12:00:00.000Z', kind: 'beta', data: [1, 2], secret: 's2', password: 'pw-two-2' },
  { title: 'Éclair', code: 'c3', body: 'Crème pâtissière', count: 20, big: '3', price: 30.25, ratio: 0.75, active: true, day: '2024-03-20', clock: '18:45:30', moment: '2024-03-20T18:45:30.000Z', kind: 'gamma', data: null, secret: 's3', password: 'pw-three' },
  { title: 'éclair au café', code: 'c4', body: '100% cocoa_free', count: 30, big: '4', price: 40, ratio: 1, active: false, day: '2024-04-25', clock: '23:59:59', moment: '2024-04-25T23:59:59.000Z', kind: 'alpha', data: { b: 'x' }, secret: 's4', password: 'pw-four-4' },
  { title: '50% off_sale', code: 'c5', body: 'discount', count: 40, big: '5', price: 50, ratio: 1.5, active: true, day: '2024-05-30', clock: '00:00:00', moment: '2024-05-30T00:00:00.000Z', kind: 'beta', data: {}, secret: 's5', password: 'pw-five-5' },
  { title: '500 off sale', code: 'c6', body: null, count: null, big: null, price: null, ratio: null, active: null, day: null, clock: null, moment: null, kind: null, data: null, secret: 's6', password: 'pw-six-66' },
  { title: 'Zebra', code: 'c7', body: 'zebra stripes', count: 20, big: '7', price: 70, ratio: 7, active: true, day: '2024-07-04', clock: '07:07:07', moment: '2024-07-04T07:07:07.000Z', kind: 'gamma', data: { z: true }, secret: 's7', password: 'pw-seven7' },
  { title: 'Draft donut', code: 'c8', body: 'unpublished', count: 99, big: '8', price: 99, ratio: 9.9, active: true, day: '2024-08-08', clock: '08:08:08', moment: '2024-08-08T08:08:08.000Z', kind: 'alpha', data: null, secret: 's8', password: 'pw-eight8', publishedAt: null },
];

export interface SeededApp {
  app: TestApp;
  token: string;
  /** Ids by seed index. */
  ids: number[];
}

export async function startItemApp(dialect: TestDialect, options: Partial<TestAppOptions> = {}): Promise<SeededApp> {
  const app = await startApp({ dialect, ...options, files: { ...BASE_FILES, ...(options.files ?? {}) } });
  try {
    const token = await app.fullAccessToken();
    const ids: number[] = [];
    for (const item of ITEMS) {
      const response = await app.post('/api/items', { data: item }, { token });
      if (response.status !== 200) throw new Error(`seeding failed: ${response.status} ${response.text}`);
      ids.push(response.body.data.id);
    }
    return { app, token, ids };
  } catch (error) {
    await app.stop();
    throw error;
  }
}

/** Titles of a list answer, in order. */
export function titles(body: { data: Array<{ attributes: { title: string } }> }): string[] {
  return body.data.map((entry) => entry.attributes.title);
}

/** Titles of seed rows matching a predicate, published only, in id order. */
export function expectedTitles(predicate: (item: ItemSeed) => boolean): string[] {
  return ITEMS.filter((item) => item.publishedAt !== null && predicate(item)).map((item) => item.title as string);
}

export function errorBody(status: number, name: string, message: string, details: Record<string, unknown> = {}) {
  return { data: null, error: { status, name, message, details } };
}
