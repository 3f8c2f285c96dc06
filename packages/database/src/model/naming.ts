/**
 * Names in the Strapi v4 table layout. Strapi derives column names with a
 * lodash-style snake case (words split on case changes and digit runs), so an
 * existing Strapi database keeps matching: `publishDate` → `publish_date`,
 * `field1` → `field_1`, `featuredArticles` → `featured_articles`.
 */

const WORD = /[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+/g;

export function snakeCase(name: string): string {
  const words: string[] = [];
  for (const chunk of name.split(/[^A-Za-z0-9]+/)) {
    const found = chunk.match(WORD);
    if (found) words.push(...found);
  }
  return words.map((word) => word.toLowerCase()).join('_');
}

export function columnName(attributeName: string): string {
  return snakeCase(attributeName);
}

export function joinTableName(collectionName: string, attributeName: string): string {
  return `${collectionName}_${snakeCase(attributeName)}_links`;
}

export function componentJoinTableName(collectionName: string): string {
  return `${collectionName}_components`;
}
