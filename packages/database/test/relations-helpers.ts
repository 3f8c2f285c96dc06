/**
 * Shared helpers for the relation tests: seeding through the real REST API
 * and reading join tables straight from the database (to check both sides'
 * order columns, which responses alone cannot show).
 */
import { expect } from 'chai';
import type { TestApp } from '@tessera/testing';

export async function create(app: TestApp, token: string, plural: string, data: Record<string, unknown>): Promise<number> {
  const response = await app.post(`/api/${plural}`, { data }, { token });
  expect(response.status, JSON.stringify(response.body)).to.equal(200);
  return response.body.data.id as number;
}

export async function createMany(app: TestApp, token: string, plural: string, items: Array<Record<string, unknown>>): Promise<number[]> {
  const ids: number[] = [];
  for (const item of items) ids.push(await create(app, token, plural, item));
  return ids;
}

/** Ids of a populated relation of one entry (list, single id or null). */
export async function relatedIds(app: TestApp, token: string, path: string, field: string): Promise<number[] | number | null> {
  const separator = path.includes('?') ? '&' : '?';
  const response = await app.get(`${path}${separator}populate[${field}][fields][0]=id&publicationState=preview`, { token });
  expect(response.status, JSON.stringify(response.body)).to.equal(200);
  const value = response.body.data.attributes[field].data;
  if (value === null) return null;
  if (Array.isArray(value)) return value.map((item: { id: number }) => item.id);
  return value.id as number;
}

export async function joinRows(app: TestApp, table: string, where: Record<string, number>, columns: string[]): Promise<Array<Record<string, number | null>>> {
  const connection = app.app.db.sql;
  const rows = await connection.all(connection.knex.from(table).select(columns).where(where).orderBy('id', 'asc'));
  return rows.map((row) => {
    const clean: Record<string, number | null> = {};
    for (const column of columns) clean[column] = row[column] === null ? null : Number(row[column]);
    return clean;
  });
}

/** Target ids of `source` in a join table, sorted by an order column. */
export async function orderedBy(app: TestApp, table: string, sourceColumn: string, source: number, targetColumn: string, orderColumn: string): Promise<Array<[number, number]>> {
  const rows = await joinRows(app, table, { [sourceColumn]: source }, [targetColumn, orderColumn]);
  return rows
    .map((row): [number, number] => [row[targetColumn] as number, row[orderColumn] as number])
    .sort((a, b) => a[1] - b[1]);
}

export function expectValidation(response: { status: number; body: any }, path?: string[]): void {
  expect(response.status, JSON.stringify(response.body)).to.equal(400);
  expect(response.body.data).to.equal(null);
  expect(response.body.error.name).to.equal('ValidationError');
  if (path) expect(response.body.error.details.errors.map((item: { path: string[] }) => item.path)).to.deep.include(path);
}
