/**
 * Every filter operator of the spec's table on string, integer, decimal,
 * float, boolean, date, time, datetime, biginteger and enumeration fields,
 * logical nesting, and the system fields — real HTTP, both databases. The
 * expected rows are computed from the seed data, so each case states its
 * meaning once (see ITEMS in fixture.ts).
 */
import { expect } from 'chai';
import { eachDatabase, type TestApp } from '@tessera/testing';
import { ITEMS, errorBody, expectedTitles, startItemApp, titles, type ItemSeed } from './fixture';

type Case = [query: string, predicate: (item: ItemSeed) => boolean];

const lower = (value: unknown) => String(value).toLowerCase();
const has = <K extends keyof ItemSeed>(key: K) => (item: ItemSeed) => item[key] !== null && item[key] !== undefined;
const t = (item: ItemSeed) => item.title as string;
const n = (item: ItemSeed, key: 'count' | 'price' | 'ratio') => item[key] as number;
const ms = (value: unknown) => new Date(String(value)).getTime();

const STRING_CASES: Case[] = [
  ['filters[title]=Zebra', (i) => t(i) === 'Zebra'],
  ['filters[title][$eq]=apple TART', (i) => t(i) === 'apple TART'],
  ['filters[title][$eq]=apple tart', () => false],
  ['filters[title][$eqi]=APPLE tart', (i) => lower(t(i)) === 'apple tart'],
  ['filters[title][$eqi]=ÉCLAIR', (i) => lower(t(i)) === 'éclair'],
  ['filters[title][$ne]=Zebra', (i) => t(i) !== 'Zebra'],
  ['filters[title][$nei]=ZEBRA', (i) => lower(t(i)) !== 'zebra'],
  ['filters[title][$lt]=B', (i) => t(i) < 'B'],
  ['filters[title][$lte]=Apple pie', (i) => t(i) <= 'Apple pie'],
  ['filters[title][$gt]=Zebra', (i) => t(i) > 'Zebra'],
  ['filters[title][$gte]=Zebra', (i) => t(i) >= 'Zebra'],
  ['filters[title][$in][0]=Zebra&filters[title][$in][1]=Apple pie', (i) => ['Zebra', 'Apple pie'].includes(t(i))],
  ['filters[title][$notIn][0]=Zebra&filters[title][$notIn][1]=Apple pie', (i) => !['Zebra', 'Apple pie'].includes(t(i))],
  ['filters[title][$contains]=pple', (i) => t(i).includes('pple')],
  ['filters[title][$contains]=APPLE', () => false],
  ['filters[title][$contains]=É', (i) => t(i).includes('É')],
  ['filters[title][$notContains]=pple', (i) => !t(i).includes('pple')],
  ['filters[title][$containsi]=APPLE', (i) => lower(t(i)).includes('apple')],
  ['filters[title][$containsi]=É', (i) => lower(t(i)).includes('é')],
  ['filters[title][$containsi]=CAFÉ', (i) => lower(t(i)).includes('café')],
  ['filters[title][$notContainsi]=É', (i) => !lower(t(i)).includes('é')],
  ['filters[title][$contains]=%', (i) => t(i).includes('%')],
  ['filters[title][$contains]=_', (i) => t(i).includes('_')],
  ['filters[title][$containsi]=0%25 OFF', (i) => lower(t(i)).includes('0% off')],
  // No letter in the value: matched without folding (conditions.ts), with the answers folding would give.
  ['filters[title][$containsi]=0%25', (i) => t(i).includes('0%')],
  ['filters[title][$containsi]=00', (i) => t(i).includes('00')],
  ['filters[title][$notContainsi]=%25', (i) => !t(i).includes('%')],
  ['filters[title][$startsWithi]=50', (i) => t(i).startsWith('50')],
  ['filters[title][$endsWithi]=0', (i) => t(i).endsWith('0')],
  ['filters[body][$containsi]=_', (i) => i.body != null && i.body.includes('_')],
  ['filters[count][$containsi]=0', (i) => has('count')(i) && String(n(i, 'count')).includes('0')],
  ['filters[title][$startsWith]=50%25', (i) => t(i).startsWith('50%')],
  ['filters[title][$startsWith]=apple', (i) => t(i).startsWith('apple')],
  ['filters[title][$startsWith]=Apple', (i) => t(i).startsWith('Apple')],
  ['filters[title][$startsWithi]=APPLE', (i) => lower(t(i)).startsWith('apple')],
  ['filters[title][$startsWithi]=É', (i) => lower(t(i)).startsWith('é')],
  ['filters[title][$endsWith]=_sale', (i) => t(i).endsWith('_sale')],
  ['filters[title][$endsWith]=tart', (i) => t(i).endsWith('tart')],
  ['filters[title][$endsWithi]=TART', (i) => lower(t(i)).endsWith('tart')],
  ['filters[title][$endsWithi]=CAFÉ', (i) => lower(t(i)).endsWith('café')],
  ['filters[title][$between][0]=A&filters[title][$between][1]=Zebra', (i) => t(i) >= 'A' && t(i) <= 'Zebra'],
  ['filters[title][$null]=true', () => false],
  ['filters[title][$notNull]=true', () => true],
  ['filters[body][$null]=true', (i) => i.body === null],
  ['filters[body][$null]=false', (i) => i.body !== null],
  ['filters[body][$notNull]=true', (i) => i.body !== null],
  ['filters[body][$notNull]=false', (i) => i.body === null],
  ['filters[body][$containsi]=CRÈME', (i) => i.body != null && lower(i.body).includes('crème')],
  ['filters[body][$contains]=%25 cocoa_', (i) => i.body != null && i.body.includes('% cocoa_')],
  // An array on a single-value operator means any of them; negated, none of them.
  ['filters[title][$eq][0]=Zebra&filters[title][$eq][1]=Éclair', (i) => ['Zebra', 'Éclair'].includes(t(i))],
  ['filters[title][$ne][0]=Zebra&filters[title][$ne][1]=Éclair', (i) => !['Zebra', 'Éclair'].includes(t(i))],
  ['filters[title][0]=Zebra&filters[title][1]=Éclair', (i) => ['Zebra', 'Éclair'].includes(t(i))],
  ['filters[title][$containsi][0]=zeb&filters[title][$containsi][1]=TART', (i) => /zeb|tart/.test(lower(t(i)))],
];

const INTEGER_CASES: Case[] = [
  ['filters[count]=20', (i) => i.count === 20],
  ['filters[count][$eq]=20', (i) => i.count === 20],
  ['filters[count][$ne]=20', (i) => has('count')(i) && i.count !== 20],
  ['filters[count][$lt]=20', (i) => has('count')(i) && n(i, 'count') < 20],
  ['filters[count][$lte]=20', (i) => has('count')(i) && n(i, 'count') <= 20],
  ['filters[count][$gt]=20', (i) => has('count')(i) && n(i, 'count') > 20],
  ['filters[count][$gte]=30', (i) => has('count')(i) && n(i, 'count') >= 30],
  ['filters[count][$in][0]=10&filters[count][$in][1]=30', (i) => [10, 30].includes(i.count as number)],
  ['filters[count][$in]=10', (i) => i.count === 10],
  ['filters[count][$notIn][0]=10&filters[count][$notIn][1]=30', (i) => has('count')(i) && ![10, 30].includes(n(i, 'count'))],
  ['filters[count][$between][0]=15&filters[count][$between][1]=30', (i) => has('count')(i) && n(i, 'count') >= 15 && n(i, 'count') <= 30],
  ['filters[count][$null]=true', (i) => i.count === null],
  ['filters[count][$notNull]=true', (i) => i.count !== null],
  ['filters[count][$contains]=0', (i) => has('count')(i) && String(i.count).includes('0')],
  ['filters[count][$startsWith]=2', (i) => has('count')(i) && String(i.count).startsWith('2')],
  ['filters[count][$endsWith]=0', (i) => has('count')(i) && String(i.count).endsWith('0')],
  ['filters[count][$eqi]=20', (i) => i.count === 20],
  ['filters[count][$eq]=-5', () => false],
];

const DECIMAL_CASES: Case[] = [
  ['filters[price]=10.5', (i) => i.price === 10.5],
  ['filters[price][$eq]=20', (i) => i.price === 20],
  ['filters[price][$ne]=20', (i) => has('price')(i) && i.price !== 20],
  ['filters[price][$lt]=30.25', (i) => has('price')(i) && n(i, 'price') < 30.25],
  ['filters[price][$lte]=30.25', (i) => has('price')(i) && n(i, 'price') <= 30.25],
  ['filters[price][$gt]=30.25', (i) => has('price')(i) && n(i, 'price') > 30.25],
  ['filters[price][$gte]=40', (i) => has('price')(i) && n(i, 'price') >= 40],
  ['filters[price][$in][0]=20&filters[price][$in][1]=50', (i) => [20, 50].includes(i.price as number)],
  ['filters[price][$notIn][0]=20', (i) => has('price')(i) && i.price !== 20],
  ['filters[price][$between][0]=20&filters[price][$between][1]=40.0', (i) => has('price')(i) && n(i, 'price') >= 20 && n(i, 'price') <= 40],
  ['filters[price][$null]=true', (i) => i.price === null],
  ['filters[price][$notNull]=true', (i) => i.price !== null],
  ['filters[price][$contains]=.5', (i) => has('price')(i) && String(i.price).includes('.5')],
  ['filters[price][$startsWith]=3', (i) => has('price')(i) && String(i.price).startsWith('3')],
  ['filters[ratio][$gt]=0.5', (i) => has('ratio')(i) && n(i, 'ratio') > 0.5],
  ['filters[ratio][$eq]=0.25', (i) => i.ratio === 0.25],
  ['filters[ratio][$between][0]=0.5&filters[ratio][$between][1]=1.5', (i) => has('ratio')(i) && n(i, 'ratio') >= 0.5 && n(i, 'ratio') <= 1.5],
  ['filters[ratio][$contains]=.5', (i) => has('ratio')(i) && String(i.ratio).includes('.5')],
  ['filters[ratio][$endsWith]=7', (i) => has('ratio')(i) && String(i.ratio).endsWith('7')],
];

const BOOLEAN_CASES: Case[] = [
  ['filters[active]=true', (i) => i.active === true],
  ['filters[active][$eq]=false', (i) => i.active === false],
  ['filters[active][$eq]=1', (i) => i.active === true],
  ['filters[active][$ne]=true', (i) => i.active === false],
  ['filters[active][$in][0]=true', (i) => i.active === true],
  ['filters[active][$notIn][0]=true', (i) => i.active === false],
  ['filters[active][$null]=true', (i) => i.active === null],
  ['filters[active][$notNull]=true', (i) => i.active !== null],
];

const DATE_CASES: Case[] = [
  ['filters[day]=2024-03-20', (i) => i.day === '2024-03-20'],
  ['filters[day][$eq]=2024-03-20', (i) => i.day === '2024-03-20'],
  ['filters[day][$ne]=2024-03-20', (i) => has('day')(i) && i.day !== '2024-03-20'],
  ['filters[day][$lt]=2024-03-20', (i) => has('day')(i) && (i.day as string) < '2024-03-20'],
  ['filters[day][$lte]=2024-03-20', (i) => has('day')(i) && (i.day as string) <= '2024-03-20'],
  ['filters[day][$gt]=2024-03-20', (i) => has('day')(i) && (i.day as string) > '2024-03-20'],
  ['filters[day][$gte]=2024-04-25', (i) => has('day')(i) && (i.day as string) >= '2024-04-25'],
  ['filters[day][$in][0]=2024-01-10&filters[day][$in][1]=2024-07-04', (i) => ['2024-01-10', '2024-07-04'].includes(i.day as string)],
  ['filters[day][$notIn][0]=2024-01-10', (i) => has('day')(i) && i.day !== '2024-01-10'],
  ['filters[day][$between][0]=2024-02-01&filters[day][$between][1]=2024-05-30', (i) => has('day')(i) && (i.day as string) >= '2024-02-01' && (i.day as string) <= '2024-05-30'],
  ['filters[day][$null]=true', (i) => i.day === null],
  ['filters[day][$notNull]=true', (i) => i.day !== null],
  ['filters[day][$startsWith]=2024-0', (i) => has('day')(i) && (i.day as string).startsWith('2024-0')],
  ['filters[day][$contains]=-04-', (i) => has('day')(i) && (i.day as string).includes('-04-')],
];

const DATETIME_CASES: Case[] = [
  ['filters[moment]=2024-03-20T18:45:30.000Z', (i) => i.moment === '2024-03-20T18:45:30.000Z'],
  ['filters[moment][$eq]=2024-03-20T20:45:30%2B02:00', (i) => i.moment === '2024-03-20T18:45:30.000Z'],
  ['filters[moment][$ne]=2024-03-20T18:45:30.000Z', (i) => has('moment')(i) && i.moment !== '2024-03-20T18:45:30.000Z'],
  ['filters[moment][$lt]=2024-03-20T18:45:30.000Z', (i) => has('moment')(i) && ms(i.moment) < ms('2024-03-20T18:45:30.000Z')],
  ['filters[moment][$lte]=2024-03-20T18:45:30.000Z', (i) => has('moment')(i) && ms(i.moment) <= ms('2024-03-20T18:45:30.000Z')],
  ['filters[moment][$gt]=2024-03-20T18:45:30.000Z', (i) => has('moment')(i) && ms(i.moment) > ms('2024-03-20T18:45:30.000Z')],
  ['filters[moment][$gte]=2024-04-25T23:59:59Z', (i) => has('moment')(i) && ms(i.moment) >= ms('2024-04-25T23:59:59Z')],
  ['filters[moment][$in][0]=2024-01-10T08:30:00.000Z&filters[moment][$in][1]=2024-07-04T07:07:07.000Z', (i) => ['2024-01-10T08:30:00.000Z', '2024-07-04T07:07:07.000Z'].includes(i.moment as string)],
  ['filters[moment][$notIn][0]=2024-01-10T08:30:00.000Z', (i) => has('moment')(i) && i.moment !== '2024-01-10T08:30:00.000Z'],
  ['filters[moment][$between][0]=2024-02-01T00:00:00Z&filters[moment][$between][1]=2024-05-30T00:00:00Z', (i) => has('moment')(i) && ms(i.moment) >= ms('2024-02-01T00:00:00Z') && ms(i.moment) <= ms('2024-05-30T00:00:00Z')],
  ['filters[moment][$null]=true', (i) => i.moment === null],
  ['filters[moment][$notNull]=true', (i) => i.moment !== null],
];

const OTHER_CASES: Case[] = [
  ['filters[clock]=12:00:00', (i) => i.clock === '12:00:00'],
  ['filters[clock][$lt]=12:00', (i) => has('clock')(i) && (i.clock as string) < '12:00:00'],
  ['filters[clock][$between][0]=08:00&filters[clock][$between][1]=19:00', (i) => has('clock')(i) && (i.clock as string) >= '08:00:00' && (i.clock as string) <= '19:00:00'],
  ['filters[clock][$startsWith]=0', (i) => has('clock')(i) && (i.clock as string).startsWith('0')],
  ['filters[clock][$endsWith]=.000', (i) => has('clock')(i)],
  ['filters[clock][$null]=true', (i) => i.clock === null],
  ['filters[big]=9007199254740993', (i) => i.big === '9007199254740993'],
  ['filters[big][$gt]=3', (i) => has('big')(i) && BigInt(i.big as string) > 3n],
  ['filters[big][$in][0]=2&filters[big][$in][1]=7', (i) => ['2', '7'].includes(i.big as string)],
  ['filters[kind]=alpha', (i) => i.kind === 'alpha'],
  ['filters[kind][$in][0]=beta&filters[kind][$in][1]=gamma', (i) => ['beta', 'gamma'].includes(i.kind as string)],
  ['filters[kind][$containsi]=AMM', (i) => has('kind')(i) && (i.kind as string).includes('amm')],
  ['filters[kind][$null]=true', (i) => i.kind === null],
];

const LOGICAL_CASES: Case[] = [
  ['filters[$or][0][count][$lt]=15&filters[$or][1][count][$gt]=35&filters[active][$eq]=true', (i) => has('count')(i) && (n(i, 'count') < 15 || n(i, 'count') > 35) && i.active === true],
  ['filters[$and][0][count][$gte]=20&filters[$and][1][active]=true', (i) => has('count')(i) && n(i, 'count') >= 20 && i.active === true],
  ['filters[$not][title][$eq]=Zebra', (i) => t(i) !== 'Zebra'],
  ['filters[$not][count][$eq]=20', (i) => has('count')(i) && i.count !== 20],
  ['filters[$or][0][$and][0][count][$eq]=20&filters[$or][0][$and][1][active]=true&filters[$or][1][title][$startsWith]=Z', (i) => (i.count === 20 && i.active === true) || t(i).startsWith('Z')],
  ['filters[$or][0][$not][kind][$eq]=alpha&filters[$or][1][kind][$null]=true', (i) => i.kind !== 'alpha'],
  ['filters[count][$not][$eq]=20', (i) => has('count')(i) && i.count !== 20],
  ['filters[count][$or][0][$eq]=10&filters[count][$or][1][$eq]=40', (i) => [10, 40].includes(i.count as number)],
  ['filters[count][$gt]=10&filters[count][$lt]=40', (i) => has('count')(i) && n(i, 'count') > 10 && n(i, 'count') < 40],
  ['filters[$and][0][$or][0][kind]=alpha&filters[$and][0][$or][1][kind]=beta&filters[$and][1][$not][active]=true', (i) => ['alpha', 'beta'].includes(i.kind as string) && i.active === false],
];

eachDatabase('REST filters', (dialect) => {
  let app: TestApp;
  let ids: number[];
  let token: string;
  before(async () => {
    ({ app, ids, token } = await startItemApp(dialect));
  });
  after(() => app?.stop());

  const groups: Array<[string, Case[]]> = [
    ['string and text', STRING_CASES],
    ['integer', INTEGER_CASES],
    ['decimal and float', DECIMAL_CASES],
    ['boolean', BOOLEAN_CASES],
    ['date', DATE_CASES],
    ['datetime', DATETIME_CASES],
    ['time, biginteger, enumeration', OTHER_CASES],
    ['$and / $or / $not', LOGICAL_CASES],
  ];
  for (const [name, cases] of groups) {
    it(`${name}: ${cases.length} cases`, async () => {
      const failures: string[] = [];
      for (const [query, predicate] of cases) {
        const response = await app.get(`/api/items?fields[0]=title&${query}`);
        const expected = expectedTitles(predicate);
        if (response.status !== 200) failures.push(`${query}: ${response.status} ${response.text}`);
        else if (JSON.stringify(titles(response.body)) !== JSON.stringify(expected)) {
          failures.push(`${query}: got ${JSON.stringify(titles(response.body))}, want ${JSON.stringify(expected)}`);
        }
      }
      expect(failures).to.deep.equal([]);
    });
  }

  it('every case matches at least one row somewhere (the table is not vacuous)', () => {
    const all = [...STRING_CASES, ...INTEGER_CASES, ...DECIMAL_CASES, ...BOOLEAN_CASES, ...DATE_CASES, ...DATETIME_CASES, ...OTHER_CASES, ...LOGICAL_CASES];
    const nonEmpty = all.filter(([, predicate]) => expectedTitles(predicate).length > 0);
    expect(nonEmpty.length).to.be.greaterThan(all.length * 0.85);
  });

  it('filters on id, createdAt, updatedAt and publishedAt', async () => {
    const byId = await app.get(`/api/items?fields[0]=title&filters[id][$in][0]=${ids[0]}&filters[id][$in][1]=${ids[6]}`);
    expect(titles(byId.body)).to.deep.equal(['Apple pie', 'Zebra']);
    const gt = await app.get(`/api/items?fields[0]=title&filters[id][$gt]=${ids[4]}`);
    expect(titles(gt.body)).to.deep.equal(['500 off sale', 'Zebra']);
    const third = (await app.get(`/api/items/${ids[2]}`)).body.data.attributes;
    const created = await app.get(`/api/items?fields[0]=title&filters[createdAt][$lte]=${encodeURIComponent(third.createdAt)}`);
    expect(titles(created.body)).to.deep.equal(['Apple pie', 'apple TART', 'Éclair']);
    const updated = await app.get(`/api/items?fields[0]=title&filters[updatedAt][$gt]=${encodeURIComponent(third.updatedAt)}`);
    expect(titles(updated.body)).to.deep.equal(['éclair au café', '50% off_sale', '500 off sale', 'Zebra']);
    const drafts = await app.get('/api/items?fields[0]=title&publicationState=preview&filters[publishedAt][$null]=true', { token });
    expect(titles(drafts.body)).to.deep.equal(['Draft donut']);
    const published = await app.get(`/api/items?fields[0]=title&publicationState=preview&filters[publishedAt][$gte]=${encodeURIComponent(third.publishedAt)}`, { token });
    expect(titles(published.body)).to.deep.equal(['Éclair', 'éclair au café', '50% off_sale', '500 off sale', 'Zebra']);
  });

  it('$eq null means IS NULL and an array $eq is OR-ed (typed values, as GraphQL and services pass them)', async () => {
    const service = app.app.service<{ find(params: Record<string, unknown>): Promise<{ results: Array<{ title: string }> }> }>('api::item.item')!;
    const nulls = await service.find({ filters: { count: { $eq: null } } });
    expect(nulls.results.map((entry) => entry.title)).to.deep.equal(['500 off sale']);
    const notNull = await service.find({ filters: { count: { $ne: null } }, fields: ['title'] });
    expect(notNull.results.map((entry) => entry.title)).to.deep.equal(expectedTitles((i) => i.count !== null));
    const anyOf = await service.find({ filters: { count: { $eq: [10, 40] } } });
    expect(anyOf.results.map((entry) => entry.title)).to.deep.equal(['Apple pie', '50% off_sale']);
    const implicitNull = await service.find({ filters: { kind: null } });
    expect(implicitNull.results.map((entry) => entry.title)).to.deep.equal(['500 off sale']);
    const typed = await service.find({ filters: { active: false, price: { $gte: 20 } } });
    expect(typed.results.map((entry) => entry.title)).to.deep.equal(['apple TART', 'éclair au café']);
  });

  it('rejects bad operators and values with a 400 naming them', async () => {
    const cases: Array<[string, string]> = [
      ['filters[title][$foo]=1', 'Invalid parameter $foo'],
      ['filters[count][$eq]=abc', 'Invalid parameter count'],
      ['filters[price][$gt]=ten', 'Invalid parameter price'],
      ['filters[active][$eq]=maybe', 'Invalid parameter active'],
      ['filters[day][$eq]=not-a-date', 'Invalid parameter day'],
      ['filters[moment][$lt]=yesterday', 'Invalid parameter moment'],
      ['filters[count][$between][0]=1', 'Invalid parameter $between'],
      ['filters[count][$between][0]=1&filters[count][$between][1]=2&filters[count][$between][2]=3', 'Invalid parameter $between'],
      ['filters[$and][title]=x', 'Invalid parameter $and'],
      ['filters[$or]=x', 'Invalid parameter $or'],
      ['filters[nope][$eq]=1', 'Invalid parameter nope'],
      ['filters[secret][$eq]=s1', 'Invalid parameter secret'],
      ['filters[password][$eq]=pw-one-1', 'Invalid parameter password'],
      ['filters[$or][0][secret]=s1', 'Invalid parameter secret'],
      ['filters[data][$eq]=1', 'Invalid parameter $eq'],
      ['filters[active][$containsi]=tr', 'Invalid parameter $containsi'],
    ];
    for (const [query, message] of cases) {
      const response = await app.get(`/api/items?${query}`);
      expect(response.status, query).to.equal(400);
      expect(response.body.error.name, query).to.equal('ValidationError');
      expect(response.body.error.message, query).to.match(new RegExp(`^${message.replace(/\$/g, '\\$')}(:|$)`));
    }
    const exact = await app.get('/api/items?filters[secret][$eq]=s1');
    expect(exact.body).to.deep.equal(errorBody(400, 'ValidationError', 'Invalid parameter secret'));
  });

  it('values outside what the column can hold are a 400 naming the field on both databases (were 500s on Postgres)', async () => {
    const cases: Array<[string, string]> = [
      ['filters[count][$gt]=99999999999', 'count'],
      ['filters[count][$in][0]=1&filters[count][$in][1]=-2147483649', 'count'],
      ['filters[id]=2147483648', 'id'],
      ['filters[big]=99999999999999999999', 'big'],
      ['filters[day][$gt]=2024-13-45', 'day'],
      ['filters[day][$gt]=2023-02-29', 'day'],
      ['filters[day][$gt]=0000-01-01', 'day'],
      ['filters[day][$lt]=99999-01-01', 'day'],
      ['filters[clock][$eq]=99:99', 'clock'],
      ['filters[moment][$gt]=%2B275760-09-13T00:00:00.000Z', 'moment'],
      ['filters[moment][$gt]=10000-01-01', 'moment'],
      ['filters[moment][$lt]=8640000000000000', 'moment'],
      ['filters[createdAt][$gt]=-000001-01-01T00:00:00Z', 'createdAt'],
    ];
    for (const [query, field] of cases) {
      const response = await app.get(`/api/items?${query}`);
      expect(response.status, `${query}: ${response.text}`).to.equal(400);
      expect(response.body.error.message, query).to.match(new RegExp(`^Invalid parameter ${field}: `));
    }
    const edges = await app.get('/api/items?fields[0]=title&filters[count][$lte]=2147483647&filters[day][$gte]=0001-01-01&filters[moment][$lt]=9999-12-31T23:59:59Z');
    expect(edges.status, edges.text).to.equal(200);
    expect(titles(edges.body)).to.deep.equal(expectedTitles((i) => i.count != null && i.day != null && i.moment != null));
  });

  it('a private field never changes the answer when smuggled through a relation-less path', async () => {
    // Sanity: the seed really has these secrets, so a leak would show.
    expect(ITEMS.every((item) => item.secret)).to.equal(true);
    const response = await app.get('/api/items?filters[$not][$or][0][password][$null]=true');
    expect(response.status).to.equal(400);
  });
});
