/**
 * SQLite statements get their LIMIT values written into the text
 * (connection/sqlite-limits.ts): a bound LIMIT makes SQLite re-prepare the
 * statement on every call. Only LIMIT parameters move; every other parameter,
 * quoted text and OFFSET stay as they were, and the bindings left match the
 * `?` left, in order.
 */
import { expect } from 'chai';
import { SqliteLimits, findLimitSlots } from '../../src/connection/sqlite-limits';

const inline = (sql: string, bindings: unknown[]) => new SqliteLimits().inline({ sql, bindings });

describe('SQLite LIMIT values in the statement text', () => {
  const rows: Array<[name: string, sql: string, bindings: unknown[], expectedSql: string, expectedBindings: unknown[]]> = [
    ['get one', 'select `t0`.`id` from `articles` as `t0` where `t0`.`id` = ? limit ?', [7, 1], 'select `t0`.`id` from `articles` as `t0` where `t0`.`id` = ? limit 1', [7]],
    ['a page: offset stays bound', 'select * from `a` order by `id` asc limit ? offset ?', [25, 50], 'select * from `a` order by `id` asc limit 25 offset ?', [50]],
    ['upper case, several spaces', 'SELECT * FROM a WHERE b = ? LIMIT   ?', ['x', 3], 'SELECT * FROM a WHERE b = ? LIMIT   3', ['x']],
    ['a subquery and the outer query', 'select * from (select * from `a` where `x` = ? limit ?) as `s` where `y` = ? limit ?', [1, 64, 2, 25], 'select * from (select * from `a` where `x` = ? limit 64) as `s` where `y` = ? limit 25', [1, 2]],
    ['a ? inside quotes is no parameter', "select `limit ?`, 'limit ?' as \"limit ?\" from `t` where a = ? limit ?", [5, 10], "select `limit ?`, 'limit ?' as \"limit ?\" from `t` where a = ? limit 10", [5]],
    ['a column ending in limit is no keyword', 'select * from `t` where `t`.`ratelimit` = ? and unlimit = ?', [1, 2], 'select * from `t` where `t`.`ratelimit` = ? and unlimit = ?', [1, 2]],
    ['no limit: the statement itself', 'select * from `t` where a = ?', [1], 'select * from `t` where a = ?', [1]],
  ];
  for (const [name, sql, bindings, expectedSql, expectedBindings] of rows) {
    it(name, () => {
      const statement = inline(sql, bindings);
      expect(statement.sql).to.equal(expectedSql);
      expect(statement.bindings).to.deep.equal(expectedBindings);
    });
  }

  it('keeps a LIMIT bound when its value is not a whole number (correct, only re-prepared)', () => {
    for (const value of [2.5, '25', null, Number.NaN, 2 ** 60]) {
      const statement = { sql: 'select * from t limit ?', bindings: [value] };
      expect(new SqliteLimits().inline(statement)).to.equal(statement);
    }
  });

  it('gives the same text object for the same values, so the prepared statement is found again', () => {
    const limits = new SqliteLimits();
    const sql = 'select * from t where id = ? limit ?';
    expect(limits.inline({ sql, bindings: [1, 25] }).sql).to.equal(limits.inline({ sql, bindings: [2, 25] }).sql);
    expect(limits.inline({ sql, bindings: [1, 25] }).sql).not.to.equal(limits.inline({ sql, bindings: [1, 100] }).sql);
  });

  it('finds the LIMIT parameters by their place among all parameters', () => {
    expect(findLimitSlots('select ? from t where a in (?, ?) limit ? offset ?').slots).to.deep.equal([3]);
  });
});
