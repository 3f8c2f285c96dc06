import { expect } from 'chai';
import { WINDOW, windowFor } from '../../src/sql/search-window';

/** How long a SQLite search page's window is, from how many rows match (search-window.ts). */
describe('search window length', () => {
  const first = { offset: 0, limit: 25 };

  it('walks the head of the sort order for a common pattern, as far as its page likely reaches', () => {
    // 10% of 200,000 rows: the 25th match about 250 rows in.
    expect(windowFor(first, 20_000, 200_000)).to.equal(WINDOW);
    // `99` at 200,000 articles: 5,600 matches, the 25th about 893 rows in; a window of twice that, to a power of two.
    expect(windowFor(first, 5_600, 200_000)).to.equal(2048);
    expect(windowFor({ offset: 75, limit: 25 }, 5_600, 200_000)).to.equal(8192);
  });

  it('goes to the search table where walking would read more rows than match', () => {
    // `99` at 10,000 articles: 186 matches, the 25th about 1,344 rows in.
    expect(windowFor(first, 186, 10_000)).to.equal(null);
    expect(windowFor(first, 66, 10_000)).to.equal(null);
    expect(windowFor({ offset: 50, limit: 25 }, 40, 10_000)).to.equal(null);
  });

  it('asks no window longer than it may walk', () => {
    // 2,000,000 rows, 20,000 matches, page end 100: 10,000 rows in, a window of 32,768; at 100,000 rows in, none.
    expect(windowFor({ offset: 75, limit: 25 }, 20_000, 2_000_000)).to.equal(32_768);
    expect(windowFor({ offset: 75, limit: 25 }, 200_000, 200_000_000)).to.equal(null);
  });
});
