/**
 * The history checker itself, on hand-written histories: it must accept
 * what some serial order explains and reject what none does, with a report
 * naming the request that cannot be explained.
 */
import { expect } from 'chai';
import { checkHistory, type Recorded } from '../checker';
import { articleEntry, emptyState, type State } from '../model';
import type { Op } from '../workload';

function initial(): State {
  const state = emptyState();
  state.articles[1] = { title: 'A', views: 1, published: true, tags: [], category: null };
  state.tags[1] = { name: 'T1', articles: [] };
  state.tags[2] = { name: 'T2', articles: [] };
  state.idFloor = { articles: 1, tags: 2, homepage: 0 };
  return state;
}

/** All requests overlapping in time unless times are given. */
function entry(op: Op, status: number, body?: Record<string, unknown> & { id: number }, times: [number, number] = [0, 100], message?: string): Recorded {
  return { op, observed: { status, entry: body, message }, start: times[0], end: times[1] };
}

const deleted = (): State => {
  const state = initial();
  delete state.articles[1];
  return state;
};

describe('history checker', () => {
  const article = articleEntry(1, { title: 'A', views: 1, published: true, tags: [], category: null });

  it('accepts concurrent deletes of one entry where one succeeds and the others are 404s', () => {
    const history = [entry({ kind: 'deleteArticle', id: 1 }, 404), entry({ kind: 'deleteArticle', id: 1 }, 200, article), entry({ kind: 'deleteArticle', id: 1 }, 404)];
    const verdict = checkHistory(initial(), history, deleted());
    expect(verdict.ok).to.equal(true);
  });

  it('rejects two successful deletes of one entry, naming the second', () => {
    const history = [entry({ kind: 'deleteArticle', id: 1 }, 200, article), entry({ kind: 'deleteArticle', id: 1 }, 200, article)];
    const verdict = checkHistory(initial(), history, deleted());
    expect(verdict.ok).to.equal(false);
    if (verdict.ok) return;
    expect(verdict.report).to.contain('no serial order');
    expect(verdict.report).to.match(/next #1\? answered 200, a serial server would answer 404/);
  });

  it('rejects an update answered 200 after a delete had already answered', () => {
    const update: Op = { kind: 'updateArticle', id: 1, title: 'B', views: 2 };
    const updated = articleEntry(1, { title: 'B', views: 2, published: true, tags: [], category: null });
    // The delete answers the updated entry: only update-then-delete explains that.
    const history = [entry({ kind: 'deleteArticle', id: 1 }, 200, updated, [0, 10]), entry(update, 200, updated, [20, 30])];
    expect(checkHistory(initial(), history, deleted()).ok).to.equal(false);
    // Overlapping in time, the update may have run first.
    history[1].start = 5;
    expect(checkHistory(initial(), history, deleted()).ok).to.equal(true);
  });

  it('accepts relation orders some order of connects explains, rejects others', () => {
    const connect = (tag: number): Op => ({ kind: 'updateArticle', id: 1, title: `t${tag}`, views: tag, tags: { connect: [{ id: tag, position: { start: true } }], disconnect: [] } });
    const answer = (title: string, tags: number[]) => articleEntry(1, { title, views: Number(title.slice(1)), published: true, tags, category: null });
    const final = (tags: number[], title: string): State => {
      const state = initial();
      state.articles[1] = { title, views: Number(title.slice(1)), published: true, tags, category: null };
      for (const tag of tags) state.tags[tag].articles.push(1);
      return state;
    };
    const history = [entry(connect(1), 200, answer('t1', [1, 2])), entry(connect(2), 200, answer('t2', [2]))];
    expect(checkHistory(initial(), history, final([1, 2], 't1')).ok).to.equal(true);
    // The list the answers imply ([1, 2]) is not what the database holds.
    expect(checkHistory(initial(), history, final([2, 1], 't1')).ok).to.equal(false);
  });

  it('rejects a 400 that names the wrong missing id, and any 5xx', () => {
    const op: Op = { kind: 'updateArticle', id: 1, title: 'B', views: 2, tags: { connect: [{ id: 3, position: null }], disconnect: [] } };
    expect(checkHistory(initial(), [entry(op, 400, undefined, [0, 1], 'tags: api::tag.tag with id 3 does not exist')], initial()).ok).to.equal(true);
    expect(checkHistory(initial(), [entry(op, 400, undefined, [0, 1], 'tags: api::tag.tag with id 4 does not exist')], initial()).ok).to.equal(false);
    const crashed = checkHistory(initial(), [entry({ kind: 'deleteArticle', id: 1 }, 500)], initial());
    expect(crashed.ok).to.equal(false);
  });

  it('finds the order quickly when the request that finished first must go after one that finished later', () => {
    // Seen on Postgres: an unpublish answered with tag 2 still linked, a delete of tag 2 answered first.
    const state = initial();
    state.articles[1].tags = [2];
    state.tags[2].articles = [1];
    const history: Recorded[] = [
      entry({ kind: 'deleteTag', id: 2 }, 200, { id: 2, name: 'T2', articles: [1] }, [0, 50]),
      entry({ kind: 'publish', id: 1, published: false }, 200, articleEntry(1, { title: 'A', views: 1, published: false, tags: [2], category: null }), [0, 51]),
    ];
    // And 20 independent updates of other articles, finishing later: tried first, the tag delete leads nowhere.
    const final = initial();
    final.articles[1].published = false;
    delete final.tags[2];
    for (let n = 0; n < 20; n++) {
      const id = 10 + n;
      state.articles[id] = { title: 'old', views: 0, published: true, tags: [], category: null };
      final.articles[id] = { title: `u${n}`, views: n, published: true, tags: [], category: null };
      history.push(entry({ kind: 'updateArticle', id, title: `u${n}`, views: n }, 200, articleEntry(id, final.articles[id]), [0, 60 + n]));
    }
    const verdict = checkHistory(state, history, final);
    expect(verdict.ok, verdict.ok ? '' : verdict.report).to.equal(true);
    if (verdict.ok) expect(verdict.steps).to.be.lessThan(100);
  });

  it('gives up on an unexplainable history of 40 requests (its search is bounded; the test\'s timeout catches a runaway)', function () {
    // 20 updates of distinct titles (any order explains them), 20 deletes answering 404 although the entry exists.
    const history: Recorded[] = [];
    for (let n = 0; n < 20; n++) history.push(entry({ kind: 'updateArticle', id: 1, title: `u${n}`, views: n }, 200, articleEntry(1, { title: `u${n}`, views: n, published: true, tags: [], category: null })));
    for (let n = 0; n < 20; n++) history.push(entry({ kind: 'deleteArticle', id: 1 }, 404));
    const verdict = checkHistory(initial(), history, initial());
    expect(verdict.ok).to.equal(false);
  });
});
